# A Trainer subclass's metrics: `self.accelerator.gather_for_metrics(x)` hands back `x` itself in
# a single process, graph included, and the stored metrics live until they are logged.
from collections import defaultdict

from transformers import Trainer


class PreferenceTrainer(Trainer):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._stored_metrics = defaultdict(list)

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        outputs = model(**inputs)
        loss = outputs.loss
        margin = outputs.logits[:, 0] - outputs.logits[:, 1]
        self._stored_metrics["margin"].append(self.accelerator.gather_for_metrics(margin).mean().detach())  # expect: ML001
        return (loss, outputs) if return_outputs else loss
