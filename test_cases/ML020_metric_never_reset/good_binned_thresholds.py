# With thresholds=200 the curve metrics keep a fixed-size confusion tensor, not lists.
import torch
from torchmetrics.classification import BinaryAUROC


def run(model, val_loader):
    auroc = BinaryAUROC(thresholds=200)
    with torch.no_grad():
        for x, y in val_loader:
            auroc.update(model(x).sigmoid().squeeze(-1), y)
    return auroc.compute()
