# An ignite ranking metric: the predicted scores only order the targets (`argsort` returns indices,
# which carry no graph), so the gains it adds up are made of targets alone.
import torch
from ignite.metrics import Metric


def ranked(scores, items, k):
    order = torch.argsort(scores, dim=-1, descending=True)[:, :k]
    return torch.gather(items, dim=-1, index=order)


class HitRate(Metric):
    def reset(self):
        self._hits = torch.tensor(0.0)
        self._count = 0

    def update(self, output):
        y_pred, y = output
        top = ranked(y_pred, y, 5)
        self._hits += top.sum(dim=-1).clamp(max=1).sum()
        self._count += y.shape[0]

    def compute(self):
        return (self._hits / self._count).item()
