# The same configuration switch, with the zero_grad of the accumulating branch at its top: it runs on
# every micro-batch and discards what the earlier ones accumulated.
import torch


def train_one_epoch(model, criterion, loader, optimizer, accumulation_steps):
    for idx, (samples, targets) in enumerate(loader):
        outputs = model(samples)
        if accumulation_steps > 1:
            optimizer.zero_grad()  # expect: ML014
            loss = criterion(outputs, targets) / accumulation_steps
            loss.backward()
            if (idx + 1) % accumulation_steps == 0:
                optimizer.step()
        else:
            loss = criterion(outputs, targets)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
