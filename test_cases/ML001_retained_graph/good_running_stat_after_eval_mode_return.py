# Look-alikes of a running statistic updated after a guard on the module's mode that keep no graph:
# the update after `if not self.training: return` runs under torch.no_grad(); an update before the
# guard's return runs in evaluation only; after `if self.training: return` the module evaluates; a
# guard that does not leave the function says nothing of the mode after it.
import torch
from torch import nn


class NoGradNorm(nn.Module):
    def __init__(self, n, momentum=0.1):
        super().__init__()
        self.momentum = momentum
        self.register_buffer("running_mean", torch.zeros(n))

    def forward(self, x):
        if not self.training:
            return x - self.running_mean
        batch_mean = x.mean(0)
        with torch.no_grad():
            self.running_mean.mul_(1 - self.momentum).add_(batch_mean * self.momentum)
        return x - batch_mean


class EvalOnlyNorm(nn.Module):
    def __init__(self, n, momentum=0.1):
        super().__init__()
        self.momentum = momentum
        self.register_buffer("running_mean", torch.zeros(n))

    def forward(self, x):
        if not self.training:
            self.running_mean.mul_(1 - self.momentum).add_(x.mean(0) * self.momentum)
            return x - self.running_mean
        return x - x.mean(0)


class TrainReturnsFirst(nn.Module):
    def __init__(self, n, momentum=0.1):
        super().__init__()
        self.momentum = momentum
        self.register_buffer("running_mean", torch.zeros(n))

    def forward(self, x):
        if self.training:
            return x - x.mean(0)
        self.running_mean.mul_(1 - self.momentum).add_(x.mean(0) * self.momentum)
        return x - self.running_mean


class GuardStaysInFunction(nn.Module):
    def __init__(self, n, momentum=0.1):
        super().__init__()
        self.momentum = momentum
        self.register_buffer("running_mean", torch.zeros(n))

    def forward(self, x):
        if not self.training:
            x = x.float()
        self.running_mean.mul_(1 - self.momentum).add_(x.mean(0) * self.momentum)
        return x - self.running_mean
