# Linted as one project with engine.py, whose training loop hands these loggers its losses by keyword.
# `MetricLogger.update` keeps every keyword's value in a running total: a loss handed with its graph
# stays alive, with that graph, for the whole run (reported at the keep here and at the call there). The look-alikes turn each tensor into a number
# before they keep it (`if isinstance(v, torch.Tensor): v = v.item()`), of keywords or of a mapping.
from collections import defaultdict

import torch


class SmoothedValue:
    def __init__(self):
        self.total = 0.0
        self.count = 0

    def update(self, value, n=1):
        self.total += value * n
        self.count += n


class MetricLogger:
    def __init__(self):
        self.meters = defaultdict(SmoothedValue)

    def update(self, n=1, **kwargs):
        for k, v in kwargs.items():
            self.meters[k].update(v, n)  # expect: ML001


class ItemLogger:
    def __init__(self):
        self.meters = defaultdict(SmoothedValue)

    def update(self, **kwargs):
        for k, v in kwargs.items():
            if isinstance(v, torch.Tensor):
                v = v.item()
            self.meters[k].update(v)


class ItemMappingLogger:
    def __init__(self):
        self.meters = defaultdict(SmoothedValue)

    def update(self, values):
        for k, v in values.items():
            if isinstance(v, torch.Tensor):
                v = v.item()
            self.meters[k].update(v)
