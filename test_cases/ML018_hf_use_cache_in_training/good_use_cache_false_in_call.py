# use_cache=False in the training forward: no cache is built or returned.
import torch
from transformers import AutoModelForCausalLM


def train(loader):
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    for batch in loader:
        outputs = model(**batch, use_cache=False)
        outputs.loss.backward()
        optimizer.step()
        optimizer.zero_grad()
