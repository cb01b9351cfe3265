"""A GPT-style LM (nanoGPT's architecture): 8 layers, d=1024, 16 heads, seq 1024, batch 8, AdamW."""

import torch
import torch.nn as nn
import torch.nn.functional as F

from common import DEVICE, factories, maybe_checkpoint

LAYERS, DIM, HEADS, SEQ, BATCH, VOCAB = 8, 1024, 16, 1024, 8, 50304


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(DIM), nn.LayerNorm(DIM)
        self.qkv, self.proj = nn.Linear(DIM, 3 * DIM), nn.Linear(DIM, DIM)
        self.fc, self.out = nn.Linear(DIM, 4 * DIM), nn.Linear(4 * DIM, DIM)

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(DIM, dim=2)
        q, k, v = (z.view(b, t, HEADS, c // HEADS).transpose(1, 2) for z in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(y.transpose(1, 2).contiguous().view(b, t, c))
        return x + self.out(F.gelu(self.fc(self.ln2(x))))


class GPT(nn.Module):
    def __init__(self, mode):
        super().__init__()
        self.mode = mode
        self.wte, self.wpe = nn.Embedding(VOCAB, DIM), nn.Embedding(SEQ, DIM)
        self.blocks = nn.ModuleList(Block() for _ in range(LAYERS))
        self.ln = nn.LayerNorm(DIM)
        self.head = nn.Linear(DIM, VOCAB, bias=False)
        self.head.weight = self.wte.weight

    def forward(self, idx):
        x = self.wte(idx) + self.wpe(torch.arange(idx.shape[1], device=idx.device))
        for block in self.blocks:
            x = maybe_checkpoint(block, self.mode, x)
        return self.head(self.ln(x))


def build(mode):
    model = GPT(mode).to(DEVICE)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
    idx = torch.randint(0, VOCAB, (BATCH, SEQ + 1), device=DEVICE)

    def loss_fn(m, batch):
        logits = m(batch[:, :-1])
        return F.cross_entropy(logits.reshape(-1, VOCAB), batch[:, 1:].reshape(-1))

    return model, opt, idx, loss_fn


fp32, bf16, ckpt = factories(build)
