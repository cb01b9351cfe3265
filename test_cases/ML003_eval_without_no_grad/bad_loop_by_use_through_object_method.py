# A loop over batches that runs its models through methods of the project's objects (a module's
# `score`, a predictor's `apply` that runs the network it holds), never differentiates, and reads
# each output only as numbers or a detached copy: evaluation by use, whatever the names say.
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 4)

    def forward(self, x):
        return self.fc(x)

    def score(self, x):
        return self(x).softmax(-1)


class Predictor:
    def __init__(self):
        self.model = Net()

    def apply(self, x):
        return self.model(x)


def labels(loader):
    net = Net()
    for x in loader:
        print(net.score(x).argmax(-1).tolist())  # expect: ML003


def arrays(loader):
    predictor = Predictor()
    found = []
    for x in loader:
        found.append(predictor.apply(x).detach().cpu().numpy())  # expect: ML003
    return found
