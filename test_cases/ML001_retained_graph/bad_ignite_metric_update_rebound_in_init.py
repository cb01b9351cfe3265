# An ignite Metric whose `update` is chosen when it is constructed: `self.update = self._errors_update`
# binds another method under the hook's name, so the engine's once-per-iteration `update(output)`
# runs `_errors_update`, which adds the predictions' errors, graph and all, to a running sum.
import torch
from ignite.metrics import Metric
from ignite.metrics.metric import reinit__is_reduced


class MeanError(Metric):
    def __init__(self, absolute=True, output_transform=lambda x: x, device="cpu"):
        if absolute:
            self.update = self._errors_update
        super().__init__(output_transform=output_transform, device=device)

    @reinit__is_reduced
    def reset(self):
        self._sum_of_errors = torch.tensor(0.0, device=self._device)
        self._num_examples = 0

    @reinit__is_reduced
    def update(self, output):
        y_pred, y = output
        self._num_examples += y.shape[0]

    @reinit__is_reduced
    def _errors_update(self, output):
        y_pred, y = output
        self._sum_of_errors += torch.abs(y_pred - y).sum()  # expect: ML001
        self._num_examples += y.shape[0]

    def compute(self):
        return self._sum_of_errors.item() / max(self._num_examples, 1)
