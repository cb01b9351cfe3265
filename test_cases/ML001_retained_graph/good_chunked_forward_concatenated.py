# A chunked forward: the chunk outputs are concatenated right after the loop and the list is
# dropped; the graph is what the caller's backward needs (issue 12, shape 5).
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
            enc.append(x_i)
        enc = torch.cat(enc)
        return enc
