# The same helpers when they move what they keep off the device, or keep a Python number.
import torch


def collect(store, value):
    store.append(value.cpu())


class Evaluator:
    def __init__(self):
        self.scores = []

    def add(self, outputs):
        self.scores.append(outputs.max().item())


def evaluate(model, loader, device):
    preds = []
    evaluator = Evaluator()
    model.eval()
    with torch.no_grad():
        for x, y in loader:
            out = model(x.to(device))
            collect(preds, out)
            evaluator.add(out)
    return preds, evaluator
