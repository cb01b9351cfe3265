# A home-grown trainer (skorch issue 218): `infer` runs the module and serves both steps;
# `train_step` backwards what it returns, `validation_step` runs it with grad on, every batch.
import torch


class NeuralNet(object):
    def __init__(self, module, criterion, optimizer):
        self.module_ = module
        self.criterion_ = criterion
        self.optimizer_ = optimizer

    def infer(self, x):
        return self.module_(x)

    def forward(self, loader):
        return [self.infer(x) for x, _ in loader]

    def train_step(self, x, y):
        self.module_.train()
        loss = self.criterion_(self.infer(x), y)
        loss.backward()
        self.optimizer_.step()
        return loss.item()

    @torch.no_grad()
    def validation_step(self, x, y):
        self.module_.eval()
        y_pred = self.infer(x)  # expect: ML003
        return self.criterion_(y_pred, y).item()

    def fit(self, train_loader, valid_loader):
        for x, y in train_loader:
            self.train_step(x, y)
        return [self.validation_step(x, y) for x, y in valid_loader]
