# The same moving average, updated on the buffer itself: `embed_sum` is computed from the encoder's
# output, so the buffer gains its graph, and every call adds to it.
import torch
from torch import nn
from torch.nn import functional as F


class Quantize(nn.Module):
    def __init__(self, dim, n_embed, decay=0.99):
        super().__init__()
        self.decay = decay
        self.register_buffer("embed", torch.randn(dim, n_embed))
        self.register_buffer("cluster_size", torch.zeros(n_embed))
        self.register_buffer("embed_avg", torch.randn(dim, n_embed))

    def forward(self, input):
        flatten = input.reshape(-1, self.embed.shape[0])
        dist = flatten.pow(2).sum(1, keepdim=True) - 2 * flatten @ self.embed
        embed_ind = (-dist).max(1).indices
        embed_onehot = F.one_hot(embed_ind, self.embed.shape[1]).type(flatten.dtype)
        if self.training:
            self.cluster_size.data.mul_(self.decay).add_(embed_onehot.sum(0), alpha=1 - self.decay)
            embed_sum = flatten.transpose(0, 1) @ embed_onehot
            self.embed_avg.mul_(self.decay).add_(embed_sum.detach(), alpha=1 - self.decay)  # expect: ML001
            self.embed.data.copy_(self.embed_avg / self.cluster_size.unsqueeze(0))
        quantize = F.embedding(embed_ind, self.embed.transpose(0, 1))
        return input + (quantize - input).detach()
