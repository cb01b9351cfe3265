# diffusers' tiled VAE encode: per frame batch the encoder outputs are collected and concatenated
# right after the loop into the row's tile; the list is dropped, the graph flows on by design.
import torch
from torch import nn


class TiledEncoder(nn.Module):
    def __init__(self, encoder):
        super().__init__()
        self.encoder = encoder

    def forward(self, x, num_batches, size):
        row = []
        for j in range(0, x.shape[-1], size):
            time = []
            for k in range(num_batches):
                tile = self.encoder(x[:, :, k * size : (k + 1) * size, :, j : j + size])
                time.append(tile)
            row.append(torch.cat(time, dim=2))
        return torch.cat(row, dim=4)
