# The project's evaluator, in its own file: `add` appends what it is handed to its lists as it is.
import torch


class Evaluator:
    def __init__(self):
        self.preds = []
        self.targets = []

    def add(self, preds, targets):
        self.preds.append(preds)
        self.targets.append(targets)

    def accuracy(self):
        return (torch.cat(self.preds).argmax(-1) == torch.cat(self.targets)).float().mean().item()
