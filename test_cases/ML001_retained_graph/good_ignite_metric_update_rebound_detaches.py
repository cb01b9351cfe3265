# Look-alikes of an ignite Metric whose `update` is bound to another method when it is constructed,
# silent: the bound method detaches the predictions before it adds their errors, and a method bound
# under a name that is no hook of the engine (`self.reader = self._read`) runs only where it is called.
import torch
from ignite.metrics import Metric
from ignite.metrics.metric import reinit__is_reduced


class MeanError(Metric):
    def __init__(self, output_transform=lambda x: x, device="cpu"):
        self.update = self._errors_update
        self.reader = self._read
        super().__init__(output_transform=output_transform, device=device)

    @reinit__is_reduced
    def reset(self):
        self._sum_of_errors = torch.tensor(0.0, device=self._device)
        self._num_examples = 0

    @reinit__is_reduced
    def update(self, output):
        pass

    @reinit__is_reduced
    def _errors_update(self, output):
        y_pred, y = output[0].detach(), output[1]
        self._sum_of_errors += torch.abs(y_pred - y).sum()
        self._num_examples += y.shape[0]

    def _read(self, output):
        y_pred, y = output
        self._sum_of_errors += torch.abs(y_pred - y).sum()

    def compute(self):
        return self._sum_of_errors.item() / max(self._num_examples, 1)
