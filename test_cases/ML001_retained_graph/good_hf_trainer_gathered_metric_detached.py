# A Trainer subclass that detaches what it hands to `gather_for_metrics`: the stored metrics
# keep no graph, even in a single process where the gather returns its input.
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
        self._stored_metrics["margin"].append(self.accelerator.gather_for_metrics(margin.detach()).mean())
        return (loss, outputs) if return_outputs else loss
