# A covariance statistic updated in place under `if ... and self.train():`. `train()` switches the
# module to training mode and returns it, so the branch always runs, with grad on in training:
# the buffer takes each step's graph and links it to the previous one.
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
            f = x.reshape(-1, x.shape[-1])
            cov = torch.matmul(f.t(), f)
            self.feats_cov.mul_(self.beta).add_(cov.detach(), alpha=1 - self.beta)  # expect: ML001
        self.step += 1
        return x
