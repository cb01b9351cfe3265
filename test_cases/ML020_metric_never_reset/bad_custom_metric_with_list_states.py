# A project's own torchmetrics metric: `add_state(..., default=[])` makes list states that every `update`
# appends the batch's predictions and targets to, on their device, until `reset()`; never reset, they grow
# for the whole run.
import torch
from torchmetrics import Metric


class TopKRecall(Metric):
    def __init__(self, k=10):
        super().__init__()
        self.k = k
        self.add_state("scores", default=[], dist_reduce_fx="cat")
        self.add_state("labels", default=[], dist_reduce_fx="cat")

    def update(self, scores, labels):
        self.scores.append(scores)
        self.labels.append(labels)

    def compute(self):
        scores, labels = torch.cat(self.scores), torch.cat(self.labels)
        return (scores.topk(self.k, dim=-1).indices == labels[:, None]).any(-1).float().mean()


def validate(model, loader, epochs, device):
    recall = TopKRecall(k=5).to(device)
    for epoch in range(epochs):
        with torch.no_grad():
            for x, y in loader:
                recall.update(model(x.to(device)), y.to(device))  # expect: ML020
        print(f"epoch {epoch}: recall@5 {recall.compute():.3f}")
