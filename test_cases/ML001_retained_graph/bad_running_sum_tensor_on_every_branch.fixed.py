# The running sum adds the weighted loss on both branches of the number check on the weight: a
# tensor with its graph wherever it is stored, so `.detach()` applies on every path.
import torch


def train(model, loader, criterion, optimizer, weight):
    total = 0.0
    for x, y in loader:
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if isinstance(weight, float):
            v = loss * weight
        else:
            v = loss * weight.mean()
        total += v.detach()  # expect: ML001
    return total
