# Linted as one project with absa.py: `SetFitModel` is no module, whatever its name says, and
# predicts under `torch.no_grad()`; `ScoringModel` is a module.
import torch
from torch import nn


class SetFitModel:
    def __init__(self, body, head):
        self.body = body
        self.head = head

    @torch.no_grad()
    def predict(self, inputs):
        return self.head(self.body(inputs)).argmax(-1)


class ScoringModel(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.linear = nn.Linear(width, 1)

    def forward(self, x):
        return self.linear(x)
