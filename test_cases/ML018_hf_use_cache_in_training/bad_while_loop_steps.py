# A step-counting while loop with the output kept and logged after the step.
import torch
from transformers import AutoModelForCausalLM


def train(data_iter, max_steps):
    model = AutoModelForCausalLM.from_pretrained("EleutherAI/pythia-410m")
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-5)
    step = 0
    while step < max_steps:
        batch = next(data_iter)
        outputs = model(input_ids=batch, labels=batch)  # expect: ML018
        outputs.loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        print(step, outputs.logits.shape)
        step += 1
