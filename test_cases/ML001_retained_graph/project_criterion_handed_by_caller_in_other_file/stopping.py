# Linted as one project with core.py and fit.py: `MovingAverageCriterion` keeps a window of the values
# it is handed, each concatenated onto the last (`__call__` inherited from its base class, which calls
# the subclass's `evaluate`); `ThresholdCriterion` only reads a number from the value it is handed.
import torch


class StoppingCriterion:
    def __call__(self, fvals):
        return self.evaluate(fvals)

    def evaluate(self, fvals):
        raise NotImplementedError


class MovingAverageCriterion(StoppingCriterion):
    def __init__(self, n_window=10):
        self.n_window = n_window
        self._prev = None

    def evaluate(self, fvals):
        if self._prev is None:
            self._prev = fvals.unsqueeze(0)
        else:
            self._prev = torch.cat([self._prev[-self.n_window:], fvals.unsqueeze(0)])
        return bool(self._prev.size(0) > self.n_window)


class ThresholdCriterion(StoppingCriterion):
    def __init__(self, threshold):
        self.threshold = threshold

    def evaluate(self, fvals):
        return bool(fvals.item() < self.threshold)
