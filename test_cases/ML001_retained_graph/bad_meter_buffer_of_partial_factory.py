# A mapping of meters made on first use: `MeterBuffer` is a `defaultdict` whose factory, a
# `functools.partial` of `AverageMeter`, makes each missing entry. Its `update` merges what it is
# handed by keyword into one mapping and hands every entry to that entry's meter, which keeps it:
# a loss handed with its graph stays alive, with that graph, in the meter's window and total. The
# finding is where the buffer hands each entry on to be kept.
import functools
from collections import defaultdict, deque


class AverageMeter:
    def __init__(self, window_size=20):
        self._deque = deque(maxlen=window_size)
        self._total = 0.0
        self._count = 0

    def update(self, value):
        self._deque.append(value)
        self._count += 1
        self._total += value


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


def train(model, loader, optimizer, lr):
    meter = MeterBuffer(window_size=50)
    for x, y in loader:
        outputs = model(x, y)
        loss = outputs["total_loss"]
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        meter.update(lr=lr, **outputs)
    return meter

