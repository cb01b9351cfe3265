# The running statistic updated under torch.no_grad(), as BatchNorm does.
import torch
from torch import nn


class RunningNorm(nn.Module):
    def __init__(self, n, momentum=0.1):
        super().__init__()
        self.momentum = momentum
        self.register_buffer("running_mean", torch.zeros(n))

    def forward(self, x):
        if self.training:
            with torch.no_grad():
                batch_mean = x.mean(0)
                self.running_mean.mul_(1 - self.momentum).add_(batch_mean * self.momentum)
        return x - self.running_mean
