# Meters made on first use by a `defaultdict` whose factory is a `functools.partial` of `AverageMeter`:
# each missing entry is an `AverageMeter`, whose `update` keeps what it is handed. The training loop
# hands it the loss with its graph, which then stays alive in the meter's window and total.
import functools
from collections import defaultdict, deque


class AverageMeter:
    def __init__(self, window_size=20):
        self._deque = deque(maxlen=window_size)
        self._total = 0.0

    def update(self, value):
        self._deque.append(value)  # expect: ML001
        self._total += value


def train(model, loader, optimizer):
    windows = defaultdict(functools.partial(AverageMeter, window_size=10))
    for x, y in loader:
        loss = model(x, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        windows["loss"].update(loss.detach())
        windows["lr"].update(optimizer.param_groups[0]["lr"])
    return windows
