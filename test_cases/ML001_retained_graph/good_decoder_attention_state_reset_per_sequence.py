# A decoder's attention keeps its weights on `self` from one decoder step to the next and reads them
# back in the next step (forward attention); `init_forward_attn`, called by `init_states`, starts
# them afresh for every sequence. The graph kept is the sequence's own, which its backward needs.
import torch
from torch import nn


class ForwardAttention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.query = nn.Linear(dim, dim)
        self.alpha = None

    def init_forward_attn(self, inputs):
        batch, steps = inputs.shape[:2]
        self.alpha = torch.cat([torch.ones(batch, 1), torch.zeros(batch, steps - 1)], dim=1).to(inputs.device)

    def init_states(self, inputs):
        self.init_forward_attn(inputs)

    def apply_forward_attention(self, alignment):
        alignment = alignment * self.alpha
        return alignment / alignment.sum(dim=1, keepdim=True)

    def forward(self, query, inputs):
        scores = torch.bmm(inputs, self.query(query).unsqueeze(-1)).squeeze(-1)
        alignment = self.apply_forward_attention(torch.softmax(scores, dim=-1))
        self.alpha = alignment
        return torch.bmm(alignment.unsqueeze(1), inputs).squeeze(1)
