# Seq2SeqTrainer scoring logits (predict_with_generate off): every batch's logits stay on the device.
import transformers


def build(model, tokenizer, val_ds, metric_fn):
    return transformers.Seq2SeqTrainer(
        model=model,
        args=transformers.Seq2SeqTrainingArguments("t5-out", per_device_eval_batch_size=16),  # expect: ML016
        eval_dataset=val_ds,
        tokenizer=tokenizer,
        compute_metrics=metric_fn,
    )
