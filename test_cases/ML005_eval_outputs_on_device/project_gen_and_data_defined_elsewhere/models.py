# Linted as one project with sample.py: a generator model, defined here and run there.
import torch.nn as nn


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(16, 64)

    def forward(self, z):
        return self.net(z)
