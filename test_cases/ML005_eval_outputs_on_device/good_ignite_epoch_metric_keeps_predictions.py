# An ignite epoch metric gathers every batch's detached predictions until `compute`: keeping
# them is what the metric is for (ignite's `EpochMetric`), not a leak of the training step.
import torch
from ignite.metrics import Metric


class AreaUnderCurve(Metric):
    def reset(self):
        self._predictions = []
        self._targets = []

    def update(self, output):
        y_pred, y = output[0].detach(), output[1].detach()
        self._predictions.append(y_pred.clone().to(self._device))
        self._targets.append(y.clone().to(self._device))

    def compute(self):
        scores = torch.cat(self._predictions)
        labels = torch.cat(self._targets)
        order = scores.argsort(descending=True)
        return labels[order].float().cumsum(0).mean().item()
