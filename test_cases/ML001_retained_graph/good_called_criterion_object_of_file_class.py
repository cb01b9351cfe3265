# Look-alikes of objects of this file's classes called like functions, none keeping a graph: a
# criterion whose `evaluate` keeps only the number it reads from the value it is handed; the keeping
# criterion handed the value detached; a history that keeps `float(value)`; a history called inside
# `torch.no_grad()`; and an object whose inherited `__call__` runs a subclass's `evaluate` that keeps
# only the number it reads.
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
        return bool(self._prev.size(0) > self.n_window and self._prev.mean() < 1e-4)


class ThresholdCriterion(StoppingCriterion):
    def __init__(self, threshold):
        self.threshold = threshold
        self.last = None

    def evaluate(self, fvals):
        self.last = fvals.item()
        return self.last < self.threshold


class NumberHistory:
    def __init__(self):
        self.values = []

    def __call__(self, value):
        self.values.append(float(value))


class LossHistory:
    def __init__(self):
        self.values = []

    def __call__(self, value):
        self.values.append(value)


def minimize_to(model, x, optimizer, threshold, step_limit=100):
    criterion = ThresholdCriterion(threshold)
    for _ in range(step_limit):
        optimizer.zero_grad()
        fval = model(x).pow(2).mean()
        fval.backward()
        optimizer.step()
        if criterion(fval):
            break


def minimize(model, x, optimizer, step_limit=100):
    criterion = MovingAverageCriterion()
    for _ in range(step_limit):
        optimizer.zero_grad()
        fval = model(x).pow(2).mean()
        fval.backward()
        optimizer.step()
        if criterion(fval.detach()):
            break


def train(model, loader, optimizer):
    numbers = NumberHistory()
    history = LossHistory()
    for x, y in loader:
        optimizer.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        numbers(loss)
        with torch.no_grad():
            history(model(x).mean())
    return numbers.values, history.values
