# `net_sgd` is named like a network, but what makes it is an optimizer (`torch.optim.SGD`, handed
# back by `accelerator.prepare` in the place it was given): its `zero_grad()` after `step()` inside
# `accelerator.accumulate(model)` is the prepared optimizer's, which skips the steps that do not sync.
import torch
import torch.nn.functional as F
from accelerate import Accelerator


def fit(model, loader):
    accelerator = Accelerator(gradient_accumulation_steps=4)
    net_sgd = torch.optim.SGD(model.parameters(), lr=0.1)
    model, net_sgd, loader = accelerator.prepare(model, net_sgd, loader)
    for x, y in loader:
        with accelerator.accumulate(model):
            loss = F.cross_entropy(model(x), y)
            accelerator.backward(loss)
            net_sgd.step()
            net_sgd.zero_grad()
    return loss.item()
