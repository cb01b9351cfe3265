# The validation loss is computed from detached CPU copies by the criterion every caller hands
# `validate`: `nn.MSELoss()`, a module with no parameters, so the kept losses carry no graph.
import numpy as np
import torch
from torch import nn


class Experiment:
    def __init__(self):
        self.model = nn.Linear(8, 1)

    def _select_criterion(self):
        criterion = nn.MSELoss()
        return criterion

    def validate(self, loader, criterion):
        self.model.eval()
        total_loss = []
        for x, y in loader:
            pred = self.model(x)  # expect: ML003
            loss = criterion(pred.detach().cpu(), y.detach().cpu())
            total_loss.append(loss)
        self.model.train()
        return np.average(total_loss)

    def train(self, loader, val_loader):
        optimizer = torch.optim.Adam(self.model.parameters())
        criterion = self._select_criterion()
        for x, y in loader:
            optimizer.zero_grad()
            loss = criterion(self.model(x), y)
            loss.backward()
            optimizer.step()
        return self.validate(val_loader, criterion)
