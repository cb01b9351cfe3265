# Meters of this file held in a mapping: each `update` appends what it is handed, graph and all.
from collections import OrderedDict


class AverageMeter:
    def __init__(self):
        self.values = []

    def update(self, value):
        self.values.append(value.detach())  # expect: ML001


def train(model, loader, optimizer, names):
    meters = OrderedDict((name, AverageMeter()) for name in names)
    for x, y in loader:
        losses = model(x, y)
        total = sum(losses.values())
        optimizer.zero_grad()
        total.backward()
        optimizer.step()
        for name in names:
            meters[name].update(losses[name])
    return meters
