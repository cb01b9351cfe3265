# A running statistic updated in place in training mode without torch.no_grad() or .detach():
# the buffer's graph links every step to the previous one.
import torch
from torch import nn


class RunningNorm(nn.Module):
    def __init__(self, n, momentum=0.1):
        super().__init__()
        self.momentum = momentum
        self.register_buffer("running_mean", torch.zeros(n))

    def forward(self, x):
        if self.training:
            batch_mean = x.mean(0)
            self.running_mean.mul_(1 - self.momentum).add_(batch_mean * self.momentum)  # expect: ML001
        return x - self.running_mean
