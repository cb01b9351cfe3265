# The accelerator module looked up by name at run time, `torch.cuda` when the name is not there:
# `accelerator.empty_cache()` is a device module's empty_cache, here on every step (peft PR 2894).
import torch


def train(model, loader, optimizer, criterion, device_type):
    accelerator = getattr(torch, device_type, torch.cuda)
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        accelerator.empty_cache()  # expect: ML004
