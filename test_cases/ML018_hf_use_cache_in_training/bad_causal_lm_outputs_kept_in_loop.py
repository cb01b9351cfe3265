# `outputs` holds past_key_values of all layers until the next step's forward has returned.
import torch
from transformers import AutoModelForCausalLM


def train(loader, steps=1000):
    model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-3.2-1B", torch_dtype=torch.bfloat16).cuda()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    model.train()
    for step, batch in enumerate(loader):
        outputs = model(**batch)  # expect: ML018
        outputs.loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if step == steps:
            break
