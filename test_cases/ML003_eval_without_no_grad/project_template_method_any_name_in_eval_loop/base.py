# Linted as one project with runners.py. `BaseRunner` leaves `forward_batch` to its subclasses and
# calls it from a training loop, from a loop after `self.model.eval()` and from the same loop under
# `torch.no_grad()`. `ClsRunner.forward_batch` (runners.py) runs the model with grad on: the graphs of
# `score` are never used, whatever the method is called. `QuietBase.forward_batch`'s only override is
# decorated `@torch.no_grad()`: it records no graph.
import torch


class BaseRunner:
    def __init__(self, model, optimizer):
        self.model = model
        self.optimizer = optimizer

    def forward_batch(self, batch):
        raise NotImplementedError

    def fit(self, loader):
        self.model.train()
        for batch in loader:
            loss = self.forward_batch(batch).mean()
            loss.backward()
            self.optimizer.step()
            self.optimizer.zero_grad()

    def score(self, loader):
        self.model.eval()
        total = 0.0
        for batch in loader:
            total += self.forward_batch(batch).mean().item()  # expect: ML003
        return total

    def score_quietly(self, loader):
        self.model.eval()
        total = 0.0
        with torch.no_grad():
            for batch in loader:
                total += self.forward_batch(batch).mean().item()
        return total


class QuietBase:
    def __init__(self, model):
        self.model = model

    def forward_batch(self, batch):
        raise NotImplementedError

    def score(self, loader):
        self.model.eval()
        total = 0.0
        for batch in loader:
            total += self.forward_batch(batch).mean().item()
        return total
