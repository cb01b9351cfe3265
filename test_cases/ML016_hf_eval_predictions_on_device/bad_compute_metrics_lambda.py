# A lambda for compute_metrics counts too: it needs the predictions, so the loop keeps them.
import evaluate
from transformers import Trainer, TrainingArguments

accuracy = evaluate.load("accuracy")


def main(model, ds):
    args = TrainingArguments(output_dir="ckpt", do_eval=True, per_device_eval_batch_size=32)  # expect: ML016
    trainer = Trainer(
        model=model,
        args=args,
        eval_dataset=ds["validation"],
        compute_metrics=lambda p: accuracy.compute(predictions=p.predictions.argmax(-1), references=p.label_ids),
    )
    print(trainer.evaluate())
