# The same trainer; `validation_step` runs the shared `infer` under `torch.no_grad()`.
import torch


class NeuralNet(object):
    def __init__(self, module, criterion, optimizer):
        self.module_ = module
        self.criterion_ = criterion
        self.optimizer_ = optimizer

    def infer(self, x):
        return self.module_(x)

    def train_step(self, x, y):
        self.module_.train()
        loss = self.criterion_(self.infer(x), y)
        loss.backward()
        self.optimizer_.step()
        return loss.item()

    def validation_step(self, x, y):
        self.module_.eval()
        with torch.no_grad():
            y_pred = self.infer(x)
        return self.criterion_(y_pred, y).item()
