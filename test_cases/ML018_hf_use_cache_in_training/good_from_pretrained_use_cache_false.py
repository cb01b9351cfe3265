# from_pretrained(use_cache=False) sets it on the config.
import torch
from transformers import AutoModelForCausalLM


def train(loader):
    model = AutoModelForCausalLM.from_pretrained("gpt2", use_cache=False)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    for batch in loader:
        outputs = model(**batch)
        outputs.loss.backward()
        optimizer.step()
        optimizer.zero_grad()
