# compute_on_cpu=True moves the list states to host memory after each update.
import torch
import torchmetrics


def run(model, val_loader):
    auroc = torchmetrics.AUROC(task="multiclass", num_classes=100, compute_on_cpu=True)
    with torch.no_grad():
        for x, y in val_loader:
            auroc.update(model(x), y)
    return auroc.compute()
