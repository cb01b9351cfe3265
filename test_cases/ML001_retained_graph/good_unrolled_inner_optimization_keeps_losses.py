# A meta-learner's forward unrolls a few steepest-descent steps with `create_graph=True`, keeping the
# loss of every step for the caller: the whole unrolled graph is built for the outer backward, on purpose.
import torch
from torch import nn


class SteepestDescent(nn.Module):
    def __init__(self, residual_module: nn.Module, num_iter: int = 3, step: float = 0.1) -> None:
        super().__init__()
        self.residual_module = residual_module
        self.num_iter = num_iter
        self.step = step

    def forward(self, weights: torch.Tensor):
        losses = []
        for _ in range(self.num_iter):
            weights.requires_grad_(True)
            residual = self.residual_module(weights)
            losses.append((residual * residual).sum())
            grad = torch.autograd.grad(residual, weights, residual.clone(), create_graph=True)[0]
            weights = weights - self.step * grad
        return weights, losses
