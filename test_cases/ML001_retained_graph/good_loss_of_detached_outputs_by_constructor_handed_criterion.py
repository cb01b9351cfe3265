# The trainer keeps the criterion its constructor is handed, and every construction hands it
# `nn.CrossEntropyLoss()`, a module with no parameters: the losses of detached outputs carry no graph.
import torch
from torch import nn


class Trainer:
    def __init__(self, model, criterion):
        self.model = model
        self.criterion = criterion

    def evaluate(self, loader):
        losses = []
        for x, y in loader:
            with torch.no_grad():
                logits = self.model(x)
            loss = self.criterion(logits.detach(), y)
            losses.append(loss)
        return torch.stack(losses).mean().item()


def main(loader):
    trainer = Trainer(nn.Linear(8, 3), nn.CrossEntropyLoss())
    return trainer.evaluate(loader)
