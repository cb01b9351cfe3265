# The same evaluation summing `elbo.differentiable_loss(...)`, which returns the loss tensor with
# its graph (its name says loss and no library model says otherwise): every batch's graph stays
# alive in the sum.
import torch
from pyro.infer import Trace_ELBO


def main(vae, test_loader, epochs):
    elbo = Trace_ELBO()
    for epoch in range(epochs):
        total = 0.0
        for x, _ in test_loader:
            total += elbo.differentiable_loss(vae.model, vae.guide, x)  # preview: ML001
        print(epoch, total)
