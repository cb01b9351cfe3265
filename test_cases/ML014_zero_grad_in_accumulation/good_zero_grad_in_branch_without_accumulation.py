# A configuration switch (Swin Transformer's SimMIM fine-tuning): with accumulation the step waits for
# `accumulation_steps` micro-batches; without it, the else branch zeroes, backwards and steps on every
# iteration. The else branch's zero_grad never meets the accumulating step.
import torch


def train_one_epoch(model, criterion, loader, optimizer, accumulation_steps):
    for idx, (samples, targets) in enumerate(loader):
        outputs = model(samples)
        if accumulation_steps > 1:
            loss = criterion(outputs, targets) / accumulation_steps
            loss.backward()
            if (idx + 1) % accumulation_steps == 0:
                optimizer.step()
                optimizer.zero_grad()
        else:
            loss = criterion(outputs, targets)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
