# A gradient reversal layer: `coeff` is declared `Optional[float]` and the layer computes it as a
# number (`np.float(...)`): whatever else the calls show, the declared number on `ctx` is fine.
from typing import Any, Optional, Tuple

import numpy as np
import torch
from torch import nn
from torch.autograd import Function


class GradientReverseFunction(Function):
    @staticmethod
    def forward(ctx: Any, input: torch.Tensor, coeff: Optional[float] = 1.0) -> torch.Tensor:
        ctx.coeff = coeff
        return input * 1.0

    @staticmethod
    def backward(ctx: Any, grad_output: torch.Tensor) -> Tuple[torch.Tensor, Any]:
        return grad_output.neg() * ctx.coeff, None


class GradientReverseLayer(nn.Module):
    def forward(self, *input):
        return GradientReverseFunction.apply(*input)


class WarmStartGradientReverseLayer(nn.Module):
    def __init__(self, max_iters: int = 1000):
        super().__init__()
        self.iter_num, self.max_iters = 0, max_iters

    def forward(self, input: torch.Tensor) -> torch.Tensor:
        coeff = np.float(2.0 / (1.0 + np.exp(-10 * self.iter_num / self.max_iters)) - 1.0)
        return GradientReverseFunction.apply(input, coeff)
