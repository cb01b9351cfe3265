# Linted as one project with renderer.py and validate.py. `SDFNetwork.gradient` differentiates the
# signed distance with respect to the points (`torch.autograd.grad`, keeping the graph): whatever
# calls it needs grad on, and under `torch.no_grad()` it raises.
import torch
from torch import nn


class SDFNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 1)

    def forward(self, x):
        return self.fc(x)

    def gradient(self, x):
        x.requires_grad_(True)
        y = self(x)
        return torch.autograd.grad(y, x, torch.ones_like(y), create_graph=True)[0]


class ColorNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 3)

    def forward(self, x):
        return self.fc(x).sigmoid()
