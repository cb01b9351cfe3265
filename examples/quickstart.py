"""A small training script with three of the leaks memlint finds: `memlint examples/quickstart.py`."""

import torch


def train(model, loader, optimizer, criterion):
    losses = []
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x.cuda()), y.cuda())
        loss.backward()
        optimizer.step()
        losses.append(loss)
        torch.cuda.empty_cache()
    return losses


def evaluate(model, loader):
    model.eval()
    predictions = []
    for x, _ in loader:
        predictions.append(model(x.cuda()))
    return torch.cat(predictions)
