# Look-alikes of a mapping of meters made on first use, silent: `MeterBuffer.update` detaches each
# tensor before its meter keeps it, `NumberMeter.update` keeps a Python number (`.item()`), and the
# keyword values merged into the local mapping are numbers already.
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
        self._deque.append(value.item() if isinstance(value, torch.Tensor) else value)


class MeterBuffer(defaultdict):
    def __init__(self, window_size=20):
        factory = functools.partial(AverageMeter, window_size=window_size)
        super().__init__(factory)

    def update(self, values=None, **kwargs):
        if values is None:
            values = {}
        values.update(kwargs)
        for k, v in values.items():
            if isinstance(v, torch.Tensor):
                v = v.detach()
            self[k].update(v)


class NumberBuffer(defaultdict):
    def __init__(self):
        super().__init__(functools.partial(NumberMeter, window_size=5))

    def update(self, **kwargs):
        values = {}
        values.update(kwargs)
        for k, v in values.items():
            self[k].update(v)


def train(model, loader, optimizer, lr):
    meter = MeterBuffer(window_size=50)
    numbers = NumberBuffer()
    windows = defaultdict(functools.partial(NumberMeter, window_size=10))
    for x, y in loader:
        outputs = model(x, y)
        loss = outputs["total_loss"]
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        meter.update(lr=lr, **outputs)
        numbers.update(**outputs)
        windows["loss"].update(loss)
        plain = MeterBuffer()
        plain.update({"loss": loss.item()})
    return meter, numbers, windows
