# trl's SFTConfig is a TrainingArguments: with compute_metrics, the causal LM's logits (vocabulary-wide) are kept.
from trl import SFTConfig, SFTTrainer


def token_accuracy(eval_pred):
    logits, labels = eval_pred
    return {"token_accuracy": float((logits.argmax(-1) == labels).mean())}


config = SFTConfig(output_dir="sft", eval_strategy="steps", eval_steps=200)  # expect: ML016
trainer = SFTTrainer(model="Qwen/Qwen2.5-0.5B", args=config, eval_dataset="val.jsonl", compute_metrics=token_accuracy)
trainer.train()
