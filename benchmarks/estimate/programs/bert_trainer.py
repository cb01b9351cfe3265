"""BERT-base fine-tune (sequence classification, seq 128, batch 32) through HF `Trainer`:
a command-form program (`memlint estimate -- python bert_trainer.py [--bf16] [--ckpt]`).
Randomly initialised from a config: nothing is downloaded."""

import os
import sys
import tempfile

import torch
from torch.utils.data import Dataset
from transformers import BertConfig, BertForSequenceClassification, Trainer, TrainingArguments

SEQ, BATCH, STEPS = 128, 32, int(os.environ.get("BENCH_STEPS", "3"))


class RandomText(Dataset):
    def __len__(self):
        return BATCH * 16

    def __getitem__(self, i):
        return {"input_ids": torch.randint(0, 30522, (SEQ,)), "attention_mask": torch.ones(SEQ, dtype=torch.long),
                "labels": torch.randint(0, 2, ())}


def main():
    model = BertForSequenceClassification(BertConfig(num_labels=2))
    args = TrainingArguments(output_dir=tempfile.mkdtemp(), per_device_train_batch_size=BATCH, max_steps=STEPS,
                             bf16="--bf16" in sys.argv, gradient_checkpointing="--ckpt" in sys.argv,
                             report_to=[], logging_steps=1, save_strategy="no", dataloader_num_workers=0,
                             use_cpu=not torch.cuda.is_available())
    Trainer(model=model, args=args, train_dataset=RandomText()).train()


if __name__ == "__main__":
    main()
