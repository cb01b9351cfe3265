# Linted as one project with the metrics beside it: ignite calls `update(output)` once per
# iteration with the process function's output; these bases hand it on to `self._update`.
import torch
from ignite.metrics import Metric


class BaseRegression(Metric):
    """Checks the shapes, then hands the predictions on as they came (with their graph)."""

    def update(self, output):
        y_pred, y = output[0], output[1]
        if y_pred.ndim == 2 and y_pred.shape[1] == 1:
            y_pred = y_pred.squeeze(dim=-1)
        self._update((y_pred, y))

    def _update(self, output):
        raise NotImplementedError


class DetachedRegression(Metric):
    """The same, detaching both elements before its subclasses see them."""

    def update(self, output):
        y_pred, y = output[0].detach(), output[1].detach()
        if y_pred.ndim == 2 and y_pred.shape[1] == 1:
            y_pred = y_pred.squeeze(dim=-1)
        self._update((y_pred, y))

    def _update(self, output):
        raise NotImplementedError
