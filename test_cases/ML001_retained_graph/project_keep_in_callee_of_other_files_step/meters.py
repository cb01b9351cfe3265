# Linted as one project with train.py, whose training loop hands these objects values every step. What a
# method keeps of a value handed with its autograd graph on every step outlives the step here: the
# finding is at the keep (one fix for every caller) as well as at train.py's call. The look-alikes
# keep Python numbers, a bounded window of numbers, or are handed values without history.
from collections import deque

import torch


class SumMeter:
    def __init__(self):
        self.sum = 0.0
        self.count = 0

    def update(self, val, n=1):
        self.sum += val * n  # expect: ML001
        self.count += n


class HistoryLog:
    def __init__(self):
        self.entries = {}

    def log(self, step, **scalars):
        self.entries[step] = scalars  # expect: ML001


class FloatMeter:
    def __init__(self):
        self.sum = 0.0

    def update(self, val):
        self.sum += float(val)


class WindowMeter:
    def __init__(self, size=20):
        self.window = deque(maxlen=size)

    def update(self, val):
        self.window.append(val.item())


class NoGradMeter:
    def __init__(self):
        self.sum = torch.zeros(())

    def update(self, val):
        with torch.no_grad():
            self.sum += val


class DetachedInputMeter:
    """Kept as handed: train.py hands it `loss.detach()` only."""

    def __init__(self):
        self.values = []

    def update(self, val):
        self.values.append(val)


class EvalMeter:
    """Kept as handed: train.py hands it losses under `torch.no_grad()` only."""

    def __init__(self):
        self.values = []

    def update(self, val):
        self.values.append(val)
