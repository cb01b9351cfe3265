# Linted as one project with functions.py: the calls, through the aliases it binds, that show what
# the Functions' inputs are.
import torch
from torch import nn

from functions import blocked, lookup


class Lookup(nn.Module):
    def __init__(self, rows, dim, groups):
        super().__init__()
        self.table = nn.Parameter(torch.randn(rows, dim))
        self.groups = groups
        self.blocks = rows // groups

    def forward(self, x):
        y = lookup(x, self.table, 0.5)
        return blocked(y, self.blocks, self.groups)
