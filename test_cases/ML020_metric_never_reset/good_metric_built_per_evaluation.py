# A fresh metric per evaluation, updated in the loop and dropped with the function.
import torch
import torchmetrics


def evaluate(model, val_loader):
    ap = torchmetrics.AveragePrecision(task="binary").cuda()
    with torch.no_grad():
        for x, y in val_loader:
            ap.update(model(x).sigmoid(), y)
    return ap.compute().item()
