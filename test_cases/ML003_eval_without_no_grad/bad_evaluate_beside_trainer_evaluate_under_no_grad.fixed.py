# Two classes of one file define `evaluate`: the trainer's runs under `torch.no_grad()` where its
# `fit` calls it, but the evaluator's is a method of another class, which nothing here calls without
# grad. Its batch loop saves every batch's activations for a backward that never comes.
import torch


class Evaluator:
    def __init__(self, model, loader):
        self.model = model
        self.loader = loader

    @torch.no_grad()
    def evaluate(self):
        self.model.eval()
        scores = []
        for x, y in self.loader:
            out = self.model(x)  # expect: ML003
            scores.append((out.argmax(-1) == y).float().mean().item())
        return sum(scores) / len(scores)


class Trainer:
    def __init__(self, net, loader):
        self.net = net
        self.loader = loader

    def evaluate(self):
        return [self.net(x).sum().item() for x, _ in self.loader]

    def fit(self):
        with torch.no_grad():
            print(self.evaluate())
