# `head` holds a module (the class another file defines), part of the model that accumulates: its
# `zero_grad()` inside `accelerator.accumulate(model)` runs on every micro-batch, unlike the
# prepared optimizer's, and clears the head's accumulated gradients.
import torch
import torch.nn.functional as F
from accelerate import Accelerator

from head import Head


def fit(loader):
    accelerator = Accelerator(gradient_accumulation_steps=4)
    head = Head()
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), head)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for x, y in loader:
        with accelerator.accumulate(model):
            loss = F.cross_entropy(model(x), y)
            accelerator.backward(loss)
            optimizer.step()
            head.zero_grad()  # expect: ML014
    return loss.item()
