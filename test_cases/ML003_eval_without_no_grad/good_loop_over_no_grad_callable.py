# A scorer module whose `__call__` runs under `@torch.no_grad()` records no graph, whatever loop runs it.
import torch
from torch import nn


class Scorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(16, 1)

    def forward(self, x):
        return self.net(x)

    @torch.no_grad()
    def __call__(self, x):
        return super().__call__(x)


def score_inputs(scorer: Scorer, inputs, count):
    best = []
    for j in range(count):
        scores = scorer(inputs[j])
        best.append(scores.max().item())
    return best
