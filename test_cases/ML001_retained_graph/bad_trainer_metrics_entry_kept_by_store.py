# A Trainer's step helper fills a metrics mapping entry by entry, detaching all but one; the step
# hands the mapping to a method that keeps every value it holds: the one value set with its history
# keeps every step's graph (trl's CPO/ORPO trainers). The leak is where that value goes in.
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
        metrics["aux"] = aux.cpu().mean()  # expect: ML001
        return loss, metrics

    def compute_loss(self, model, inputs, return_outputs=False):
        loss, metrics = self.get_batch_loss_metrics(model, inputs)
        self.store_metrics(metrics, "train")
        return loss

    def store_metrics(self, metrics, split):
        for key, value in metrics.items():
            self._stored_metrics[split][key].append(value)
