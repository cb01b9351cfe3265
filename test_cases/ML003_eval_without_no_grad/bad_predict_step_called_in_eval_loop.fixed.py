# `model.predict_step(batch)` runs the model's forward (Lightning's default returns `self(batch)`):
# with grad on, every validation batch records a graph that no backward frees.
import torch
@torch.no_grad()
def validate(model, val_loader):
    model.eval()
    correct = 0
    for batch in val_loader:
        out = model.predict_step(batch)  # expect: ML003
        correct += (out.argmax(-1) == batch["label"]).sum().item()
    return correct
