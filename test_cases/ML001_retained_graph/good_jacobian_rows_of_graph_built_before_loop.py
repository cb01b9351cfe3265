# A continuous normalizing flow's divergence and Jacobian, taken row by row: each iteration
# differentiates one piece of the output computed before the loop, with `create_graph=True`, and
# the sum or the stacked rows go back to the caller, whose loss is backwarded through them. A loop
# over a tensor's dimensions within one forward, bounded by its size: nothing outlives a step.
import torch
from torch import nn


def divergence_brute_force(dx, y):
    sum_diag = 0.0
    for i in range(y.shape[1]):
        sum_diag += torch.autograd.grad(dx[:, i].sum(), y, create_graph=True)[0].contiguous()[:, i].contiguous()
    return sum_diag.contiguous()


def minibatch_jacobian(y, x):
    jac = []
    for j in range(y.shape[1]):
        dy_j_dx = torch.autograd.grad(y[:, j], x, torch.ones_like(y[:, j]), retain_graph=True, create_graph=True)[0]
        jac.append(torch.unsqueeze(dy_j_dx.view(x.shape[0], -1), 1))
    return torch.cat(jac, 1)


class ODEFunc(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, 64), nn.Tanh(), nn.Linear(64, dim))

    def forward(self, y):
        with torch.enable_grad():
            y.requires_grad_(True)
            dy = self.net(y)
            return dy, -divergence_brute_force(dy, y), minibatch_jacobian(dy, y).pow(2).sum()


def train(func, loader, optimizer):
    for x in loader:
        dy, logp, frobenius = func(x)
        loss = dy.pow(2).mean() - logp.mean() + frobenius
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
