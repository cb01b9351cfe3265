# eval_accumulation_steps is set on the arguments object after it is built.
from transformers import Trainer, TrainingArguments


def main(model, val_ds, compute_metrics):
    args = TrainingArguments(output_dir="out", eval_strategy="epoch")
    args.eval_accumulation_steps = 16
    Trainer(model=model, args=args, eval_dataset=val_ds, compute_metrics=compute_metrics).evaluate()
