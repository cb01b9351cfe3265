# A callee that keeps its argument keeps it also where a condition tests its result
# (`if not window.update(loss):`). `Window` keeps the last
# values concatenated onto a slice of the old ones (`torch.cat([self.values[-n:], v])`), whose graph
# still hangs on the last. `Threshold.update` reads a number from what it is handed.
import torch


class Window:
    def __init__(self, size=10):
        self.size = size
        self.values = torch.zeros(0)

    def update(self, value):
        self.values = torch.cat([self.values[-self.size:], value.unsqueeze(0)])  # expect: ML001
        return bool(self.values.numel() >= self.size)


class Threshold:
    def __init__(self, threshold):
        self.threshold = threshold

    def update(self, value):
        return value.item() < self.threshold


def train(model, loader, optimizer):
    window = Window()
    threshold = Threshold(0.01)
    for x in loader:
        optimizer.zero_grad()
        loss = model(x).mean()
        loss.backward()
        optimizer.step()
        if threshold.update(loss):
            break


def train_until(model, loader, optimizer):
    window = Window()
    for x in loader:
        optimizer.zero_grad()
        loss = model(x).mean()
        loss.backward()
        optimizer.step()
        if not window.update(loss.detach()):
            continue
