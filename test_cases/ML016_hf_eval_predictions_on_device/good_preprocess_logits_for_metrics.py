# preprocess_logits_for_metrics reduces each batch's logits to token ids before they are kept.
from transformers import Trainer, TrainingArguments


def argmax_logits(logits, labels):
    return logits.argmax(dim=-1)


def main(model, val_ds, compute_metrics):
    args = TrainingArguments(output_dir="out", eval_strategy="steps")
    trainer = Trainer(
        model=model,
        args=args,
        eval_dataset=val_ds,
        compute_metrics=compute_metrics,
        preprocess_logits_for_metrics=argmax_logits,
    )
    trainer.evaluate()
