# Linted as one project with base.py and train.py: `SumOfErrors.update` adds each call's error, with
# its graph, to a running sum on the object; `DetachedSumOfErrors.update` adds a number, whatever
# the names say.
import torch

from base import Metric


class SumOfErrors(Metric):
    def reset(self):
        self.total = torch.tensor(0.0)

    def update(self, preds, target):
        self.total += torch.abs(preds - target).sum()

    def compute(self):
        return self.total


class DetachedSumOfErrors(Metric):
    def reset(self):
        self.total = 0.0

    def update(self, preds, target):
        self.total += float(torch.abs(preds - target).sum())

    def compute(self):
        return self.total
