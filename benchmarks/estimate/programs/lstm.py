"""A two-layer LSTM LM: vocab 10000, 1024 wide, seq 256, batch 64, Adam (no checkpointing)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

from common import DEVICE, factories

VOCAB, DIM, SEQ, BATCH = 10000, 1024, 256, 64


class LSTMLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, DIM)
        self.rnn = nn.LSTM(DIM, DIM, num_layers=2, batch_first=True)
        self.head = nn.Linear(DIM, VOCAB)

    def forward(self, idx):
        out, _ = self.rnn(self.emb(idx))
        return self.head(out)


def build(mode):
    model = LSTMLM().to(DEVICE)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    idx = torch.randint(0, VOCAB, (BATCH, SEQ + 1), device=DEVICE)

    def loss_fn(m, batch):
        return F.cross_entropy(m(batch[:, :-1]).reshape(-1, VOCAB), batch[:, 1:].reshape(-1))

    return model, opt, idx, loss_fn


fp32, bf16, _ = factories(build)
