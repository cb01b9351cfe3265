# Look-alikes that keep no graph: the output stored detached, an input stored as it came, and a
# cache that forward itself reads back (carried state, not an output kept for later).
import torch
from torch import nn


class GrowingLayer(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.linear = nn.Linear(width, width)
        self.cache = None

    def forward(self, x, strides):
        self.strides = strides
        y = torch.relu(self.linear(x))
        self.activity = y.detach()
        if self.cache is not None:
            y = y + self.cache
        self.cache = y.mean(0, keepdim=True).detach()
        return y
