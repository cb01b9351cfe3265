# prediction_loss_only=False is the default: the predictions are still kept for compute_metrics.
from transformers import Trainer, TrainingArguments

args = TrainingArguments("out", prediction_loss_only=False, eval_strategy="epoch")  # expect: ML016


def evaluate(model, val_ds, compute_metrics):
    trainer = Trainer(model=model, args=args, eval_dataset=val_ds, compute_metrics=compute_metrics)
    return trainer.evaluate()
