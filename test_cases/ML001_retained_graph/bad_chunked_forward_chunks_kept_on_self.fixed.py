# The chunked forward of issue 12 with the evidence removed: the list of chunk outputs is kept on
# the module, so every call's chunks (and their graphs) outlive the call.
import torch
from torch import nn


class ChunkedEncoder(nn.Module):
    def __init__(self, encoder):
        super().__init__()
        self.encoder = encoder

    def forward(self, data, size):
        enc = []
        cache = None
        for chunk in torch.split(data, size, dim=-1):
            x_i, cache = self.encoder(chunk, cache)
            enc.append(x_i.detach().cpu())  # expect: ML001
        self.chunks = enc
        return torch.cat(enc)
