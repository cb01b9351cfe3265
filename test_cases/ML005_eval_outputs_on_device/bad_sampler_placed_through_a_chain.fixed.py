# stylegan3's path-length sampler: built here, then moved to the GPU at the end of a chain of
# in-place calls (`.eval().requires_grad_(False).to(device)`), so each batch it samples is on the
# device, and the list keeps them all. (Compare good_streaming_module_built_on_host.py.)
import torch
from torch import nn

DEVICE = torch.device("cuda")


class Sampler(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)

    def forward(self, c):
        return self.proj(c)


def sample_distances(labels, steps):
    sampler = Sampler(16)
    sampler.eval().requires_grad_(False).to(DEVICE)
    dist = []
    for _ in range(steps):
        x = sampler(next(labels))
        dist.append(x.clone().detach().cpu())  # expect: ML005
    return torch.cat(dist)
