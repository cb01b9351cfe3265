# eval_accumulation_steps moves the predictions to the CPU every 4 batches.
from transformers import Trainer, TrainingArguments


def main(model, train_ds, val_ds, compute_metrics):
    args = TrainingArguments(output_dir="out", eval_strategy="epoch", eval_accumulation_steps=4)
    Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=val_ds, compute_metrics=compute_metrics).train()
