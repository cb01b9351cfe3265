# A rank correlation over all evaluations of the run (never reset).
import torch
from torchmetrics.regression import SpearmanCorrCoef

spearman = SpearmanCorrCoef()


def validate(model, val_loader):
    model.eval()
    with torch.no_grad():
        for x, y in val_loader:
            spearman.update(model(x).squeeze(-1), y)  # expect: ML020
    return spearman.compute()
