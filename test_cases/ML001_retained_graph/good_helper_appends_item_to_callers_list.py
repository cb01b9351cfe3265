# Look-alikes: a helper that appends the loss's Python number to the caller's list, and one that
# appends the loss to a list the caller makes afresh every step (it dies with the step).
import torch


def record(history, value):
    history.append(value.item())


def collect(parts, value):
    parts.append(value)


def train(model, loader, optimizer, criterion):
    history = []
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        record(history, loss)
        parts = []
        collect(parts, loss)
        print(len(parts))
    return history
