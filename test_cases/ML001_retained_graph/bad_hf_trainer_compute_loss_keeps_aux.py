# A Hugging Face Trainer subclass: compute_loss runs once per training step with grad on, and the
# auxiliary loss kept on self holds every step's graph.
from transformers import Trainer


class AuxTrainer(Trainer):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.aux_history = []

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        outputs = model(**inputs)
        aux = outputs.aux_loss * 0.01
        self.aux_history.append(aux)  # expect: ML001
        loss = outputs.loss + aux
        return (loss, outputs) if return_outputs else loss
