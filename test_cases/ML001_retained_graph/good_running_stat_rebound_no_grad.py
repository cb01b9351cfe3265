# The running statistics rebound from their old values as a batch norm does it: under
# torch.no_grad() (or from detached batch statistics), so no step's graph reaches the buffers.
import torch
from torch import nn


class ComplexBatchNorm(nn.Module):
    def __init__(self, n, momentum=0.1):
        super().__init__()
        self.momentum = momentum
        self.register_buffer("running_mean", torch.zeros(n, 2))
        self.register_buffer("running_covar", torch.zeros(n, 3))

    def forward(self, x_real, x_imag):
        m = self.momentum
        if self.training:
            mean = torch.stack((x_real.mean(0), x_imag.mean(0)), dim=1)
            with torch.no_grad():
                self.running_mean = m * mean + (1 - m) * self.running_mean
            crr = x_real.detach().pow(2).mean(0)
            self.running_covar[:, 0] = m * crr + (1 - m) * self.running_covar[:, 0]
        else:
            mean = self.running_mean
        return x_real - mean[:, 0], x_imag - mean[:, 1]
