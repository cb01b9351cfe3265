# The validation loss is computed from detached copies, but the criterion every caller hands
# `validate` is a learned module (its own weights require grad): each kept loss holds its graph.
import torch
from torch import nn


class LearnedDistance(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(1, 4)

    def forward(self, pred, target):
        return (self.proj(pred) - self.proj(target)).pow(2).mean()


class Experiment:
    def __init__(self):
        self.model = nn.Linear(8, 1)

    def _select_criterion(self):
        criterion = LearnedDistance()
        return criterion

    def validate(self, loader, criterion):
        self.model.eval()
        total_loss = []
        for x, y in loader:
            pred = self.model(x)  # expect: ML003
            loss = criterion(pred.detach(), y.detach())
            total_loss.append(loss)  # expect: ML001
        self.model.train()
        return total_loss

    def train(self, loader, val_loader):
        optimizer = torch.optim.Adam(self.model.parameters())
        criterion = self._select_criterion()
        for x, y in loader:
            optimizer.zero_grad()
            loss = criterion(self.model(x), y)
            loss.backward()
            optimizer.step()
        return self.validate(val_loader, criterion)
