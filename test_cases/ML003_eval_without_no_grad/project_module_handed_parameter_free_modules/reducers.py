# Linted as one project with base.py, wrappers.py and test_wrappers.py: two reducers that hold no
# parameter, and one that makes a layer.
import torch

from base import BaseReducer


class MeanReducer(BaseReducer):
    def reduce(self, losses, counts):
        return torch.mean(losses)


class SumReducer(BaseReducer):
    def reduce(self, losses, counts):
        return torch.sum(losses)


class ScaledReducer(BaseReducer):
    def __init__(self):
        super().__init__()
        self.scale = torch.nn.Linear(1, 1)

    def reduce(self, losses, counts):
        return torch.mean(self.scale(losses.unsqueeze(-1)))
