# The arguments come from the command line (HfArgumentParser): eval_accumulation_steps may well be set there.
from transformers import HfArgumentParser, Trainer, TrainingArguments


def main(model, val_ds, compute_metrics):
    (training_args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
    Trainer(model=model, args=training_args, eval_dataset=val_ds, compute_metrics=compute_metrics).evaluate()
