# The same attention reads its weights back, but nothing but `__init__` ever sets them afresh: each
# call keeps the previous call's graph, across sequences and training steps.
import torch
from torch import nn


class ForwardAttention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.query = nn.Linear(dim, dim)
        self.alpha = None

    def apply_forward_attention(self, alignment):
        if self.alpha is not None:
            alignment = alignment * self.alpha
        return alignment / alignment.sum(dim=1, keepdim=True)

    def forward(self, query, inputs):
        scores = torch.bmm(inputs, self.query(query).unsqueeze(-1)).squeeze(-1)
        alignment = self.apply_forward_attention(torch.softmax(scores, dim=-1))
        self.alpha = alignment  # expect: ML001
        return torch.bmm(alignment.unsqueeze(1), inputs).squeeze(1)
