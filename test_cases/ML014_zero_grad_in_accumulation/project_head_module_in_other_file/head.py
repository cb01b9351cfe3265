# A module of the project, whatever the objects that hold one are called.
import torch


class Head(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(32, 4)

    def forward(self, x):
        return self.proj(x)
