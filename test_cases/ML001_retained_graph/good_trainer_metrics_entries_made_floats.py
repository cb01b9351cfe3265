# The same metrics mapping, whose entries a loop over its own items turns into floats before it is
# returned: what the store keeps has no graph.
from collections import defaultdict

from transformers import Trainer


class PairTrainer(Trainer):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._stored_metrics = defaultdict(lambda: defaultdict(list))

    def get_batch_loss_metrics(self, model, batch):
        out = model(batch["input_ids"])
        loss = out.mean()
        aux = out.pow(2).mean()
        metrics = {}
        metrics["loss"] = loss.detach().cpu()
        metrics["aux"] = aux.cpu().mean()
        for key, value in metrics.items():
            metrics[key] = value.item()
        return loss, metrics

    def compute_loss(self, model, inputs, return_outputs=False):
        loss, metrics = self.get_batch_loss_metrics(model, inputs)
        self.store_metrics(metrics, "train")
        return loss

    def store_metrics(self, metrics, split):
        for key, value in metrics.items():
            self._stored_metrics[split][key].append(value)
