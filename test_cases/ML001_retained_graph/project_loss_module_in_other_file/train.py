# Linted as one project with losses.py: calling `LossModule` returns tensors with history, so
# keeping them leaks; `LoggedLossModule` returns floats, so keeping them is fine (and `.detach()`
# on its dict would be an error), although both are named like a loss.
from losses import LoggedLossModule, LossModule


def train(model, loader, optimizer):
    loss_module = LossModule()
    history = []
    for x, y in loader:
        optimizer.zero_grad()
        losses = loss_module(model(x), y)
        sum(losses.values()).backward()
        optimizer.step()
        history.append(losses)  # expect: ML001
    return history


class Trainer:
    def __init__(self, model, optimizer):
        self.model = model
        self.optimizer = optimizer
        self.loss_module = LoggedLossModule()
        self.history = []

    def fit(self, loader):
        for x, y in loader:
            self.optimizer.zero_grad()
            losses = self.loss_module(self.model(x), y)
            self.optimizer.step()
            self.history.append(losses)
