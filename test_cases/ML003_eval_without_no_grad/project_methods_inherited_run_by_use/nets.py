# Linted as one project with heads.py, steps.py and score.py. `BaseNet.score` runs the module's forward
# and `BasePredictor.apply` the network it holds, each under its caller's grad mode; `embed` and
# `apply_quietly` are decorated `@torch.no_grad()` and record no graph for any caller.
import torch
from torch import nn


class BaseNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 4)

    def forward(self, x):
        return self.fc(x)

    def score(self, x):
        return self(x).softmax(-1)

    @torch.no_grad()
    def embed(self, x):
        return self.fc(x)


class BasePredictor:
    def __init__(self):
        self.model = BaseNet()

    def apply(self, x):
        return self.model(x)

    @torch.no_grad()
    def apply_quietly(self, x):
        return self.model(x)
