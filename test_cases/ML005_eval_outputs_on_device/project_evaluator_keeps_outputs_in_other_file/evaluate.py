# Every batch's logits go to the evaluator of evaluator.py, whose `add` keeps them on the device: its
# definition, not its name, says that they are kept.
import torch

from evaluator import Evaluator


def evaluate(model, loader, device):
    evaluator = Evaluator()
    model.eval()
    with torch.no_grad():
        for images, labels in loader:
            logits = model(images.to(device))
            evaluator.add(logits, labels.to(device))  # expect: ML005
    return evaluator.accuracy()
