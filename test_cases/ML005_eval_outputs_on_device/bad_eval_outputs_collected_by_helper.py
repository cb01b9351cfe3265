# Helpers of this file keep every batch's outputs on the device: one appends them to the list
# its caller passes in, one to a list on its object.
import torch


def collect(store, value):
    store.append(value)


class Evaluator:
    def __init__(self):
        self.preds = []

    def add(self, outputs):
        self.preds.append(outputs)


def evaluate(model, loader, device):
    preds = []
    evaluator = Evaluator()
    model.eval()
    with torch.no_grad():
        for x, y in loader:
            out = model(x.to(device))
            collect(preds, out)  # expect: ML005
            evaluator.add(out)  # expect: ML005
    return preds, evaluator
