# After the loop the kept losses are averaged into `loss`, a name that was backwarded inside the
# loop: that average is only logged, so every kept graph stayed alive for the whole epoch.
import torch


def train_epoch(model, loader, criterion, optimizer, log):
    losses = []
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss)  # expect: ML001
    loss = sum(losses) / len(losses)
    log(float(loss))
