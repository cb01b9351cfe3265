# The running sum keeps the loss's graph where the loss is a tensor, but the code checks the loss
# for a float first and adds it as it is there: the stored value may be a Python number on that
# path, where `.detach()` would raise. The finding is reported without an edit.
import torch


def train(model, loader, criterion, optimizer):
    total = 0.0
    for x, y in loader:
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if isinstance(loss, float):
            v = loss
        else:
            v = loss * x.size(0)
        total += v  # expect: ML001
    return total
