# A running average in the style of early PyTorch: `add` keeps `v.data.sum()` where
# `isinstance(v, Variable)` holds, which it does for every tensor (the legacy class answers as
# `torch.Tensor` does); the `elif` for tensors never runs on one, so the loss handed after its
# backward is kept without its graph.
import torch
from torch.autograd import Variable


class Averager:
    def __init__(self):
        self.reset()

    def add(self, v):
        if isinstance(v, Variable):
            count = v.data.numel()
            v = v.data.sum()
        elif isinstance(v, torch.Tensor):
            count = v.numel()
            v = v.sum()
        self.n_count += count
        self.sum += v

    def reset(self):
        self.n_count = 0
        self.sum = 0


def train(model, loader, optimizer):
    avg = Averager()
    for x, y in loader:
        loss = model(x).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        avg.add(loss)
    return avg
