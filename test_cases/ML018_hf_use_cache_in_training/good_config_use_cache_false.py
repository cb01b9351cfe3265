# model.config.use_cache = False turns the cache off for every forward.
import torch
from transformers import AutoModelForCausalLM


def train(loader):
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    model.config.use_cache = False
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    for batch in loader:
        outputs = model(**batch)
        outputs.loss.backward()
        optimizer.step()
        optimizer.zero_grad()
