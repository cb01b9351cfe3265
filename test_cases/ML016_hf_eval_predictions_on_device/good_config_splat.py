# The arguments come from a config dict: whether it sets eval_accumulation_steps is not in this file.
import yaml
from transformers import Trainer, TrainingArguments


def main(model, val_ds, compute_metrics, path):
    config = yaml.safe_load(open(path))
    args = TrainingArguments(output_dir="out", **config["training"])
    Trainer(model=model, args=args, eval_dataset=val_ds, compute_metrics=compute_metrics).evaluate()
