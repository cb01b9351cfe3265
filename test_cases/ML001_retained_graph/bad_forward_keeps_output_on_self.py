# A module's forward keeps what it computed on `self` for later statistics: each call's graph,
# activations included, stays alive until the next call replaces it.
import torch
from torch import nn


class GrowingLayer(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.linear = nn.Linear(width, width)
        self.store_activity = True

    def forward(self, x):
        y = torch.relu(self.linear(x))
        if self.store_activity:
            self.activity = y  # expect: ML001
        return y

    def activity_norm(self):
        return self.activity.norm()
