# A loop over batches recognised by use, in a file whose text holds none of the words such code is
# usually written with: the model runs on each batch, nothing differentiates, and every output ends
# as a count. What the outputs become decides, not the words around them.
import torch
from torch import nn


def accuracy(model: nn.Module, loader):
    correct = 0
    with torch.no_grad():
        for x, y in loader:
            _, pred = model(x).max(1)  # expect: ML003
            correct += int((pred == y).sum())
    return correct
