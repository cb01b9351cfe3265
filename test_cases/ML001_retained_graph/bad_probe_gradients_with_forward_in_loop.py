# A Hutchinson-style estimate that runs the model inside the loop: each iteration builds a graph of
# its own forward, differentiates it with `create_graph=True` and adds the result to `total`, which
# nothing differentiates, so every iteration's graph stays alive. Unlike the rows of one Jacobian,
# what the loop differentiates is computed in the loop.
import torch


def sensitivity(model, loader):
    total = 0.0
    for x in loader:
        x.requires_grad_(True)
        out = model(x)
        g = torch.autograd.grad(out.sum(), x, create_graph=True)[0]
        total += g.pow(2).sum()  # expect: ML001
    return total.item()
