# `gen` is a name generator models are often held in, but here it is NumPy's sampler, made in this
# function: what it returns is host data, so the noise kept per batch is no model output.
import numpy as np
import torch


@torch.no_grad()
def collect_noise(model, val_loader, seed):
    gen = np.random.default_rng(seed).standard_normal
    noise = []
    for x, _ in val_loader:
        model(x)
        noise.append(gen(x.shape))
    return noise
