# Linted as one project with metrics.py and train.py: the base class's `forward` hands its inputs to
# `self.update`, which it leaves to its subclasses (in another file): what a subclass's `update` keeps
# of them, calling the subclass's object keeps.
import torch


class Metric(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.reset()

    def forward(self, preds, target):
        self.update(preds, target)
        return self.compute()

    def reset(self):
        raise NotImplementedError

    def update(self, preds, target):
        raise NotImplementedError

    def compute(self):
        raise NotImplementedError
