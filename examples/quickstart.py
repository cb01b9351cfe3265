"""A small training script with the memory leaks memlint finds (run: memlint examples/quickstart.py)."""

import torch


def train(model, loader, optimizer, criterion):
    losses = []
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x.cuda()), y.cuda())
        loss.backward()
        optimizer.step()
        losses.append(loss)  # keeps every step's autograd graph
        torch.cuda.empty_cache()  # slows every step down
    return losses


def evaluate(model, loader):
    model.eval()  # does not turn autograd off
    predictions = []
    for x, _ in loader:
        predictions.append(model(x.cuda()))  # each output keeps its graph, on the GPU
    return torch.cat(predictions)
