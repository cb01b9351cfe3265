# The twin whose first check is for a float: the `elif` for tensors runs on the loss handed after
# its backward, and `v.sum()` keeps a node of its graph on the running sum every step.
import torch


class Averager:
    def __init__(self):
        self.reset()

    def add(self, v):
        if isinstance(v, float):
            count = 1
        elif isinstance(v, torch.Tensor):
            count = v.numel()
            v = v.sum()
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
