# prediction_loss_only=True: prediction_step returns the loss alone, nothing else is kept.
from transformers import Trainer, TrainingArguments


def main(model, val_ds, compute_metrics):
    args = TrainingArguments(output_dir="out", prediction_loss_only=True)
    Trainer(model=model, args=args, eval_dataset=val_ds, compute_metrics=compute_metrics).evaluate()
