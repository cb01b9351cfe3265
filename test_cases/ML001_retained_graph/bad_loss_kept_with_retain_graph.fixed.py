# backward(retain_graph=True) keeps every saved tensor of the graph: the kept loss holds all of them.
import torch


def train(model, loader, criterion, optimizer):
    losses = []
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward(retain_graph=True)
        optimizer.step()
        losses.append(loss.detach())  # expect: ML001
    return losses
