# Look-alikes of a statistic updated in place under `self.train()` that keep no graph: the update
# runs under torch.no_grad(); a flag of the module's own whose name starts like the mode
# (`self.training_stats`) says nothing about the mode, and `self.train(False)` switches
# training off and is true.
import torch
from torch import nn


class OrthogonalTransformation(nn.Module):
    def __init__(self, num_channels, beta=0.9):
        super().__init__()
        self.register_buffer("weight", torch.eye(num_channels))
        self.register_buffer("feats_cov", torch.eye(num_channels))
        self.step = 0
        self.beta = beta

    def forward(self, x):
        x = torch.matmul(x, self.weight.t())
        if self.step % 10 == 0 and self.train():
            with torch.no_grad():
                f = x.reshape(-1, x.shape[-1])
                cov = torch.matmul(f.t(), f)
                self.feats_cov.mul_(self.beta).add_(cov, alpha=1 - self.beta)
        self.step += 1
        return x


class StatsTracker(nn.Module):
    def __init__(self, num_channels, beta=0.9, training_stats=False):
        super().__init__()
        self.register_buffer("feats_mean", torch.zeros(num_channels))
        self.training_stats = training_stats
        self.beta = beta

    def forward(self, x):
        if self.training_stats:
            self.feats_mean.mul_(self.beta).add_(x.mean(0), alpha=1 - self.beta)
        return x


class FrozenStats(nn.Module):
    def __init__(self, num_channels, beta=0.9):
        super().__init__()
        self.register_buffer("feats_mean", torch.zeros(num_channels))
        self.beta = beta

    def forward(self, x):
        if self.train(False):
            self.feats_mean.mul_(self.beta).add_(x.mean(0), alpha=1 - self.beta)
        return x
