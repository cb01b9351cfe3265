# A Trainer subclass of this file, the arguments passed positionally.
from transformers import Trainer, TrainingArguments


class WeightedTrainer(Trainer):
    def compute_loss(self, model, inputs, return_outputs=False, **kwargs):
        outputs = model(**inputs)
        return (outputs.loss, outputs) if return_outputs else outputs.loss


def run(model, train_ds, val_ds, metrics):
    training_args = TrainingArguments("out", eval_strategy="steps", eval_steps=500, eval_accumulation_steps=8)  # expect: ML016
    trainer = WeightedTrainer(model, training_args, train_dataset=train_ds, eval_dataset=val_ds, compute_metrics=metrics)
    trainer.train()
