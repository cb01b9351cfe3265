# Linted as one project with train.py: calling one of these objects runs its `forward`. What each
# `forward` keeps of its inputs is a fact of this file, whatever the classes are named.
import torch


class MeanAbsoluteError(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.errors = []

    def forward(self, preds, target):
        self.errors.append(torch.abs(preds - target).mean())
        return self.errors[-1]


class DetachedRunningAverage(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.errors = []

    def forward(self, preds, target):
        self.errors.append(float(torch.abs(preds - target).mean()))
        return self.errors[-1]


class GraphKeepingAverage(torch.nn.Module):
    """Named like the detached one: it keeps every input with its graph."""

    def __init__(self):
        super().__init__()
        self.seen = []

    def forward(self, preds, target):
        self.seen.append(preds)
        return len(self.seen)
