# The same kind of template method under a base class that detaches what it hands on
# (regression_base.py), and one that keeps only the targets, which carry no graph: nothing to report.
import torch
from ignite.metrics.metric import reinit__is_reduced

from regression_base import BaseRegression, DetachedRegression


class MedianAbsoluteError(DetachedRegression):
    @reinit__is_reduced
    def reset(self):
        self._predictions = []
        self._targets = []

    def _update(self, output):
        y_pred, y = output
        self._predictions.append(y_pred.to(dtype=torch.float32))
        self._targets.append(y.to(dtype=torch.float32))

    def compute(self):
        return torch.median(torch.abs(torch.cat(self._targets) - torch.cat(self._predictions))).item()


class TargetHistogram(BaseRegression):
    @reinit__is_reduced
    def reset(self):
        self._targets = []

    def _update(self, output):
        _, y = output
        self._targets.append(y.to(dtype=torch.float32))

    def compute(self):
        return torch.histc(torch.cat(self._targets))
