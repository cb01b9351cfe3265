# Without compute_metrics, evaluate() runs with prediction_loss_only: only the loss is kept.
from transformers import Trainer, TrainingArguments


def main(model, train_ds, val_ds):
    args = TrainingArguments(output_dir="out", eval_strategy="epoch")
    Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=val_ds).train()
