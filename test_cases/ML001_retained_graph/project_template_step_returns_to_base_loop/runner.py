# Linted as one project with agents.py: the base classes' loops call the step methods they leave to
# their subclasses and keep what those return. `PPORunner.train_step` (agents.py) returns its loss after
# `backward()`: `train`'s `history` keeps every step's graph skeleton; `train_logged`'s keeps numbers.
# `DetachedRunner.update_step` returns the loss detached, and `eval_step` runs under `no_grad`: what
# the other loops keep has no graph.
import torch


class BaseRunner:
    def __init__(self, model, optimizer, loader):
        self.model = model
        self.optimizer = optimizer
        self.loader = loader

    def train(self, epochs):
        history = []
        for _ in range(epochs):
            for batch in self.loader:
                loss = self.train_step(batch)
                history.append(loss)  # expect: ML001
        return history

    def train_logged(self, epochs):
        history = []
        for _ in range(epochs):
            for batch in self.loader:
                history.append(self.train_step(batch).item())
        return history

    def evaluate(self, loader):
        scores = []
        for batch in loader:
            scores.append(self.eval_step(batch))
        return scores

    def train_step(self, batch):
        raise NotImplementedError

    def eval_step(self, batch):
        raise NotImplementedError


class LoggedRunner:
    def __init__(self, model, optimizer, loader):
        self.model = model
        self.optimizer = optimizer
        self.loader = loader

    def train(self):
        total = 0.0
        for batch in self.loader:
            total = total + self.update_step(batch)
        return total

    def update_step(self, batch):
        raise NotImplementedError
