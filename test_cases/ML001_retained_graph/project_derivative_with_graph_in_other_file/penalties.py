# Linted as one project with train.py: what the derivatives these helpers return carry is a fact of
# this file. `torch.autograd.grad(..., create_graph=True)` builds the derivative's own graph, so the
# gradient penalty carries history; without `create_graph` the gradient's norm carries none.
import torch


def gradient_penalty(critic, real, fake):
    alpha = torch.rand(real.size(0), 1, device=real.device)
    mixed = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    scores = critic(mixed)
    grad = torch.autograd.grad(scores.sum(), mixed, create_graph=True)[0]
    return ((grad.norm(2, dim=1) - 1) ** 2).mean()


def input_gradient_norm(critic, real):
    real = real.clone().requires_grad_(True)
    grad = torch.autograd.grad(critic(real).sum(), real)[0]
    return grad.norm(2, dim=1).mean()
