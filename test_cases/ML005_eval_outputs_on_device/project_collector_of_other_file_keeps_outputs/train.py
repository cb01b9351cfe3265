# Linted as one project with collector.py: the collector of the other file keeps every evaluation
# batch's predictions on the device; nothing empties it.
import torch

from collector import Collector


def evaluate(model, val_loader):
    kept = Collector()
    model.eval()
    with torch.no_grad():
        for x, y in val_loader:
            kept.update(model(x.cuda()), y.cuda())  # expect: ML005
    return kept
