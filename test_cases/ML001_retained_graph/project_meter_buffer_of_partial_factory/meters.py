# Linted as one project with trainer.py, whose training step hands `MeterBuffer.update` its losses
# by keyword, through `**outputs`. The buffer is a `defaultdict` whose factory, a `functools.partial`
# of `AverageMeter`, makes each missing entry; its `update` merges the keywords into one mapping and
# hands every entry to that entry's meter, which keeps it with its graph (reported at the hand-over
# here and at the trainer's call). The look-alikes: a buffer
# that detaches each tensor first, and one whose meters keep Python numbers.
import functools
from collections import defaultdict, deque

import torch


class AverageMeter:
    def __init__(self, window_size=20):
        self._deque = deque(maxlen=window_size)
        self._total = 0.0

    def update(self, value):
        self._deque.append(value)
        self._total += value


class NumberMeter:
    def __init__(self, window_size=20):
        self._deque = deque(maxlen=window_size)

    def update(self, value):
        self._deque.append(float(value))


class MeterBuffer(defaultdict):
    def __init__(self, window_size=20):
        factory = functools.partial(AverageMeter, window_size=window_size)
        super().__init__(factory)

    def update(self, values=None, **kwargs):
        if values is None:
            values = {}
        values.update(kwargs)
        for k, v in values.items():
            self[k].update(v)  # expect: ML001


class DetachingMeterBuffer(defaultdict):
    def __init__(self, window_size=20):
        super().__init__(functools.partial(AverageMeter, window_size=window_size))

    def update(self, values=None, **kwargs):
        if values is None:
            values = {}
        values.update(kwargs)
        for k, v in values.items():
            if isinstance(v, torch.Tensor):
                v = v.detach()
            self[k].update(v)


class NumberMeterBuffer(defaultdict):
    def __init__(self):
        super().__init__(NumberMeter)

    def update(self, **kwargs):
        values = {}
        values.update(kwargs)
        for k, v in values.items():
            self[k].update(v)
