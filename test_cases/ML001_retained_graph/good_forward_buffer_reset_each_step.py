# Look-alike: the container on self is emptied by the class itself after every step, and the
# context gets only detached values.
import torch
from torch import nn


class Layer(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(64, 64)
        self.outputs = []

    def forward(self, x, context):
        out = self.linear(x)
        context.activations.append(out.detach())
        self.outputs.append(out)
        return out

    def reset(self):
        self.outputs.clear()
