# The tuple assignment keeps Python numbers.
import torch


def train(model, loader, optimizer, criterion, cost_fn):
    losses, costs = {}, {}
    for i, (x, y) in enumerate(loader):
        out = model(x)
        loss = criterion(out, y)
        cost = cost_fn(out, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses[i], costs[i] = loss.item(), cost.item()
    return losses, costs
