# compute_metrics and no eval_accumulation_steps: the whole evaluation set's logits pile up on the GPU.
import numpy as np
from transformers import AutoModelForSequenceClassification, Trainer, TrainingArguments


def compute_metrics(eval_pred):
    logits, labels = eval_pred
    return {"accuracy": float((np.argmax(logits, axis=-1) == labels).mean())}


def main(train_ds, val_ds):
    model = AutoModelForSequenceClassification.from_pretrained("bert-base-uncased", num_labels=2)
    args = TrainingArguments(  # expect: ML016
        output_dir="out",
        per_device_eval_batch_size=64,
        eval_strategy="epoch",
        eval_accumulation_steps=8,
    )
    trainer = Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=val_ds, compute_metrics=compute_metrics)
    trainer.train()
