# `model.predict_step(batch)` in an evaluation loop under `torch.no_grad()`: no graph is recorded.
import torch


def validate(model, val_loader):
    model.eval()
    correct = 0
    with torch.no_grad():
        for batch in val_loader:
            out = model.predict_step(batch)
            correct += (out.argmax(-1) == batch["label"]).sum().item()
    return correct
