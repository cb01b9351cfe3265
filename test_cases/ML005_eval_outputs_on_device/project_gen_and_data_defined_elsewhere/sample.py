# Linted as one project with models.py: `self.gen` holds the generator model of the other file, and
# `data` is what the caller hands in (nothing here says it is a mapping): every batch's images stay
# on the device. Beside it, a `gen` that is NumPy's sampler and a `data` that is a dict made here,
# whose names lie, keep nothing of a model per batch.
import numpy as np
import torch

from models import Generator


class Sampler:
    def __init__(self):
        self.gen = Generator().cuda()

    @torch.no_grad()
    def sample_all(self, data):
        images = []
        for z in data:
            images.append(self.gen(z.cuda()))  # expect: ML005
        return images

    @torch.no_grad()
    def noise_per_key(self, probe):
        data = {"clean": 0.0, "noisy": 0.1}
        kept = []
        for name in data:
            print(name)
            kept.append(self.gen(probe))
        return kept


@torch.no_grad()
def host_noise(val_loader, seed):
    gen = np.random.default_rng(seed).standard_normal
    noise = []
    for x in val_loader:
        noise.append(gen(x.shape))
    return noise
