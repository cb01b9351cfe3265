# Losses kept per validation batch, whatever they are named: a loss module's default reduction (the
# mean) and a full reduction give one element per batch, not reported; `reduction="none"` gives one
# loss per sample, which stays on the device for every batch.
import torch
import torch.nn as nn
import torch.nn.functional as F


def validate(model, val_loader, device):
    ce = nn.CrossEntropyLoss()
    per_sample = nn.CrossEntropyLoss(reduction="none")
    model.eval()
    means, rights, nlls, rows = [], [], [], []
    with torch.no_grad():
        for x, y in val_loader:
            x, y = x.to(device), y.to(device)
            logits = model(x)
            means.append(ce(logits, y))
            rights.append((logits.argmax(1) == y).sum())
            nlls.append(F.nll_loss(logits.log_softmax(-1), y))
            rows.append(per_sample(logits, y).detach().cpu())  # expect: ML005
    return means, rights, nlls, rows
