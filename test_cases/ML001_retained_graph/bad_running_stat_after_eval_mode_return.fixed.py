# A running statistic updated in place after `if not self.training: return ...`: the statements
# after the guard run in training mode only, with grad on, so the buffer takes each step's graph.
import torch
from torch import nn


class RunningNorm(nn.Module):
    def __init__(self, n, momentum=0.1):
        super().__init__()
        self.momentum = momentum
        self.register_buffer("running_mean", torch.zeros(n))

    def forward(self, x):
        if not self.training:
            return x - self.running_mean
        batch_mean = x.mean(0)
        self.running_mean.mul_(1 - self.momentum).add_((batch_mean * self.momentum).detach())  # expect: ML001
        return x - batch_mean


class RunningScale(nn.Module):
    def __init__(self, n, momentum=0.1):
        super().__init__()
        self.momentum = momentum
        self.frozen = False
        self.register_buffer("running_var", torch.ones(n))

    def forward(self, x):
        if not self.training or self.frozen:
            return x / self.running_var.sqrt()
        batch_var = x.var(0)
        if x.size(0) > 1:
            self.running_var.lerp_(batch_var.detach(), self.momentum)  # expect: ML001
        return x / batch_var.sqrt()
