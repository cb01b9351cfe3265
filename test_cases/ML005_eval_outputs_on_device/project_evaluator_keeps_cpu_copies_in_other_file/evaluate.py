# The same evaluation loop; the evaluator of evaluator.py keeps CPU copies, so nothing grows on the device.
import torch

from evaluator import Evaluator


def evaluate(model, loader, device):
    evaluator = Evaluator()
    model.eval()
    with torch.no_grad():
        for images, labels in loader:
            logits = model(images.to(device))
            evaluator.add(logits, labels.to(device))
    return evaluator.accuracy()
