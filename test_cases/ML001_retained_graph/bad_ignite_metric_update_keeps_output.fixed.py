# An ignite Metric: the engine calls `update(output)` once per iteration with the process
# function's output; a metric attached to a trainer gets the loss and predictions with their graph.
import torch
from ignite.metrics import Metric
from ignite.metrics.metric import reinit__is_reduced, sync_all_reduce


class SumOfErrors(Metric):
    @reinit__is_reduced
    def reset(self):
        self._sum_of_errors = torch.tensor(0.0, device=self._device)
        self._num_examples = 0

    @reinit__is_reduced
    def update(self, output):
        y_pred, y = output
        errors = torch.abs(y - y_pred)
        self._sum_of_errors += torch.sum(errors).detach()  # expect: ML001
        self._num_examples += y.shape[0]

    @sync_all_reduce("_sum_of_errors", "_num_examples")
    def compute(self):
        return self._sum_of_errors.item() / self._num_examples
