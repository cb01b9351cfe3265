# The output object is dropped at once: only the loss survives the statement, the cache is freed.
import torch
from transformers import AutoModelForCausalLM


def train(loader):
    model = AutoModelForCausalLM.from_pretrained("gpt2", torch_dtype=torch.bfloat16)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    for batch in loader:
        loss = model(**batch).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
