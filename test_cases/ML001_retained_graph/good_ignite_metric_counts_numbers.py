# An ignite Metric whose engine output is a count: `update` adds up numbers, not tensors, so
# nothing it keeps has a graph (ignite's `Frequency` counts tokens this way).
from ignite.metrics import Metric


class TokensSeen(Metric):
    def reset(self):
        self._acc = 0
        self._n = 0

    def update(self, output):
        self._acc += output
        self._n = self._acc

    def compute(self):
        return self._n
