# The twin whose Variable branch sums the tensor itself, not its `.data`: every loss handed after
# its backward adds a node of its graph to the running sum (the `else`, for numbers, makes a new
# tensor), so the nodes pile up until `reset`.
import torch
from torch.autograd import Variable


class Averager:
    def __init__(self):
        self.reset()

    def add(self, v):
        if isinstance(v, Variable):
            count = v.numel()
            v = v.sum()
        else:
            count = 1
            v = torch.tensor(float(v))
        self.n_count += count
        self.sum += v.detach()  # expect: ML001

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
