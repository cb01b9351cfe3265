# An ignite metric whose `update` (run by the engine every iteration with the process function's
# output) hands the predictions on to a method its subclasses override: there they are kept, graph
# included, for the whole epoch.
import torch
from ignite.metrics import Metric


class BaseRegression(Metric):
    def update(self, output):
        y_pred, y = output[0], output[1]
        if y_pred.ndim == 2 and y_pred.shape[1] == 1:
            y_pred = y_pred.squeeze(dim=-1)
        self._update((y_pred, y))

    def _update(self, output):
        raise NotImplementedError


class MedianAbsoluteError(BaseRegression):
    def reset(self):
        self._predictions = []
        self._targets = []

    def _update(self, output):
        y_pred, y = output
        self._predictions.append(y_pred.to(dtype=torch.float32).detach())  # expect: ML001
        self._targets.append(y.to(dtype=torch.float32))

    def compute(self):
        return torch.median(torch.abs(torch.cat(self._targets) - torch.cat(self._predictions))).item()
