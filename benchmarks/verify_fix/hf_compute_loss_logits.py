"""transformers 5: a Trainer subclass whose `compute_loss` keeps `outputs.logits` (issue 17: +8.0
MiB per step on an H100, with the `.detach()` fix too)."""

import tempfile

import torch
from transformers import GPT2Config, GPT2LMHeadModel, Trainer, TrainerCallback, TrainingArguments

from memlog import log


class LogMemory(TrainerCallback):
    def on_step_end(self, args, state, control, **kwargs):
        log(state.global_step)


class KeepLogitsTrainer(Trainer):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.kept_logits = []

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        outputs = model(**inputs)
        self.kept_logits.append(outputs.logits)
        loss = outputs.loss
        return (loss, outputs) if return_outputs else loss


class Tokens(torch.utils.data.Dataset):
    def __len__(self):
        return 16 * 80

    def __getitem__(self, i):
        ids = torch.randint(0, 4096, (32,))
        return {"input_ids": ids, "labels": ids}


def main():
    model = GPT2LMHeadModel(GPT2Config(n_layer=2, n_head=4, n_embd=256, vocab_size=4096, n_positions=64))
    args = TrainingArguments(output_dir=tempfile.mkdtemp(), max_steps=80, per_device_train_batch_size=16,
                             report_to=[], save_strategy="no", logging_strategy="no", disable_tqdm=True)
    KeepLogitsTrainer(model=model, args=args, train_dataset=Tokens(), callbacks=[LogMemory()]).train()


if __name__ == "__main__":
    main()
