# The output is deleted after backward, so the cache goes with it before the next forward.
import torch
from transformers import AutoModelForCausalLM


def train(loader):
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    for batch in loader:
        outputs = model(**batch)
        outputs.loss.backward()
        del outputs
        optimizer.step()
        optimizer.zero_grad()
