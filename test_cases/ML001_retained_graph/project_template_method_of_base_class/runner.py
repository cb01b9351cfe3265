# Linted as one project with ppo.py: the base class's loops call the methods its subclasses define.
import torch


class BaseRunner:
    def __init__(self, model, optimizer, loader):
        self.model = model
        self.optimizer = optimizer
        self.loader = loader

    def train(self, epochs):
        for _ in range(epochs):
            for batch in self.loader:
                self.train_step(batch)

    def evaluate(self, loader):
        with torch.no_grad():
            for batch in loader:
                self.eval_step(batch)

    def train_step(self, batch):
        raise NotImplementedError

    def eval_step(self, batch):
        raise NotImplementedError
