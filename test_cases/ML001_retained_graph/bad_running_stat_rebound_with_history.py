# A complex batch norm's running statistics rebound from their old values in training mode,
# without torch.no_grad(): each step's statistic is computed from the last one's, so the buffer's
# graph links every step to the previous one (and keeps every step's input alive).
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
            self.running_mean = m * mean + (1 - m) * self.running_mean  # expect: ML001
            crr = x_real.pow(2).mean(0)
            self.running_covar[:, 0] = m * crr + (1 - m) * self.running_covar[:, 0]  # expect: ML001
        else:
            mean = self.running_mean
        return x_real - mean[:, 0], x_imag - mean[:, 1]
