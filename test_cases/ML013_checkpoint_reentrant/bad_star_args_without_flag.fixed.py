# Forwarded positional arguments, and no `use_reentrant=` after them.
import torch
from torch.utils.checkpoint import checkpoint


class Stack(torch.nn.Module):
    def __init__(self, blocks):
        super().__init__()
        self.blocks = torch.nn.ModuleList(blocks)

    def forward(self, x, *extra):
        for block in self.blocks:
            x = checkpoint(block, x, *extra, use_reentrant=False)  # expect: ML013
        return x
