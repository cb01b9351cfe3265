# `_update` is a template method: the base class's `update` (regression_base.py), which ignite
# runs every iteration, calls it with the predictions it was handed, graph included.
import torch
from ignite.metrics.metric import reinit__is_reduced

from regression_base import BaseRegression


class CanberraMetric(BaseRegression):
    @reinit__is_reduced
    def reset(self):
        self._sum_of_errors = torch.tensor(0.0)

    def _update(self, output):
        y_pred, y = output
        errors = torch.abs(y - y_pred) / (torch.abs(y_pred) + torch.abs(y) + 1e-15)
        self._sum_of_errors += torch.sum(errors)  # expect: ML001

    def compute(self):
        return self._sum_of_errors.item()
