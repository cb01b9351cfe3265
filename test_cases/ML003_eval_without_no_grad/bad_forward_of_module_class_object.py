# `encoder.forward(x)` of an object whose class this file shows is a module: a forward pass, run in an
# evaluation function with grad on, records a graph for a backward that never comes.
import torch
from torch import nn


class AngleEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(3, 6)

    def forward(self, values):
        return self.proj(values)


def evaluate(batches):
    encoder = AngleEncoder()
    encoder.eval()
    total = 0.0
    for values in batches:
        total += encoder.forward(values).norm().item()  # expect: ML003
    return total


if __name__ == "__main__":
    print(evaluate([torch.randn(8, 3) for _ in range(4)]))
