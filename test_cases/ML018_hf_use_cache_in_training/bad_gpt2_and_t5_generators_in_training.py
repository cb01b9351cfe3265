# GPT-2's `GPT2LMHeadModel` and T5's `T5ForConditionalGeneration` return every (decoder) layer's key/value
# cache too while their configs' `use_cache` is on (the default): `outputs` holds it through the next step.
import torch
from transformers import GPT2LMHeadModel, T5ForConditionalGeneration


def train_gpt2(loader):
    model = GPT2LMHeadModel.from_pretrained("gpt2").cuda()
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-5)
    model.train()
    for batch in loader:
        outputs = model(input_ids=batch["input_ids"], labels=batch["input_ids"])  # expect: ML018
        outputs.loss.backward()
        optimizer.step()
        optimizer.zero_grad()


def train_t5(loader):
    model = T5ForConditionalGeneration.from_pretrained("t5-small").cuda()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    model.train()
    for batch in loader:
        outputs = model(input_ids=batch["input_ids"], labels=batch["labels"])  # expect: ML018
        outputs.loss.backward()
        optimizer.step()
        optimizer.zero_grad()
