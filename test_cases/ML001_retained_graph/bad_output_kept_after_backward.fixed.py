# The kept value is the model's whole output activation: after backward its graph skeleton leaks,
# and the tensor itself stays on the device every iteration (+2 MiB/iter for 1024x512 fp32).
# `out.backward(...)` shows it is a tensor, so `.detach()` is a safe fix.
import torch


def train(model, loader, optimizer):
    kept = []
    for x in loader:
        optimizer.zero_grad()
        out = model(x)
        out.backward(torch.ones_like(out))
        optimizer.step()
        kept.append(out.detach().cpu())  # expect: ML001
    return kept
