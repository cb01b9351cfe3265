# Linted as one project with test_monitor.py: the same module in the library itself, where it is
# trained: each forward keeps its activations, graph included, until the next forward.
import torch
import torch.nn as nn


class MonitoredModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer = nn.Linear(12, 5)

    def forward(self, x):
        x = x.flatten(1)
        self.layer_input = x  # expect: ML001
        x = self.layer(x)
        self.layer_output = x  # expect: ML001
        return torch.relu(x)
