# The look-alike's evaluator moves what it is handed to the CPU as it keeps it.
import torch


class Evaluator:
    def __init__(self):
        self.preds = []
        self.targets = []

    def add(self, preds, targets):
        self.preds.append(preds.detach().cpu())
        self.targets.append(targets.cpu())

    def accuracy(self):
        return (torch.cat(self.preds).argmax(-1) == torch.cat(self.targets)).float().mean().item()
