# predict_with_generate keeps generated token ids (one int per token), not vocabulary-wide logits.
from transformers import Seq2SeqTrainer, Seq2SeqTrainingArguments


def main(model, val_ds, rouge):
    args = Seq2SeqTrainingArguments("out", predict_with_generate=True, generation_max_length=64)
    Seq2SeqTrainer(model=model, args=args, eval_dataset=val_ds, compute_metrics=rouge).evaluate()
