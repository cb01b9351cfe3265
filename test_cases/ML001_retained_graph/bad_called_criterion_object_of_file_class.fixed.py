# Objects of classes of this file called like functions: calling one runs its class's `__call__`. The
# stopping criterion's `__call__` is inherited from its base class and returns what the subclass's
# `evaluate` answers, which keeps a window of the values it is handed, each concatenated onto the last;
# the loop hands it the loss every step (its graph skeleton, piling up). The running meter's own
# `__call__` appends what it is handed to a list that lives as long as the meter.
import torch


class StoppingCriterion:
    def __call__(self, fvals):
        return self.evaluate(fvals)  # expect: ML001

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


class LossHistory:
    def __init__(self):
        self.values = []

    def __call__(self, value):
        self.values.append(value)  # expect: ML001


def minimize(model, x, optimizer, stopping_criterion=None, step_limit=100):
    if stopping_criterion is None:
        stopping_criterion = MovingAverageCriterion()
    for _ in range(step_limit):
        optimizer.zero_grad()
        fval = model(x).pow(2).mean()
        fval.backward()
        optimizer.step()
        if stopping_criterion(fval.detach()):
            break


def train(model, loader, optimizer):
    history = LossHistory()
    for x, y in loader:
        optimizer.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        history(loss.detach())
    return history.values
