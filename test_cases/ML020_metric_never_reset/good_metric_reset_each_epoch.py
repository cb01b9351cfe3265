# The metric is reset after each epoch's compute().
import torch
import torchmetrics


def run(model, val_loader, epochs):
    auroc = torchmetrics.AUROC(task="binary")
    for epoch in range(epochs):
        with torch.no_grad():
            for x, y in val_loader:
                auroc.update(model(x).sigmoid(), y)
        print(auroc.compute())
        auroc.reset()
