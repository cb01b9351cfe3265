# The fixed Trainer subclass keeps the auxiliary loss as a Python number.
from transformers import Trainer


class AuxTrainer(Trainer):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.aux_history = []

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        outputs = model(**inputs)
        aux = outputs.aux_loss * 0.01
        self.aux_history.append(aux.item())
        loss = outputs.loss + aux
        return (loss, outputs) if return_outputs else loss
