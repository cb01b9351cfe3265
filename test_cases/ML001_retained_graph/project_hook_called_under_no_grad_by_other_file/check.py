# Linted as one project with model.py: a smoke test runs one step without grad.
import torch

from model import Classifier


class Smoke:
    def __init__(self, net, criterion):
        self.module = Classifier(net, criterion)

    def run(self, batch):
        with torch.no_grad():
            return self.module.training_step(batch, 0)
