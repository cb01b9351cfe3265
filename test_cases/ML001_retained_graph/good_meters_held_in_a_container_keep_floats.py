# Meters of this file held in a mapping, whose `update` keeps a Python float: nothing outlives the step.
from collections import OrderedDict


class AverageMeter:
    def __init__(self):
        self.total = 0.0
        self.count = 0

    def update(self, value):
        self.total += float(value)
        self.count += 1


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
