"""A ViT-B/16 (12 layers, d=768, 12 heads), 224 px, batch 64, 1000 classes, AdamW."""

import torch
import torch.nn as nn
import torch.nn.functional as F

from common import DEVICE, factories, maybe_checkpoint

LAYERS, DIM, HEADS, BATCH, CLASSES = 12, 768, 12, 64, 1000


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(DIM), nn.LayerNorm(DIM)
        self.qkv, self.proj = nn.Linear(DIM, 3 * DIM), nn.Linear(DIM, DIM)
        self.mlp = nn.Sequential(nn.Linear(DIM, 4 * DIM), nn.GELU(), nn.Linear(4 * DIM, DIM))

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.qkv(self.ln1(x)).view(b, t, 3, HEADS, c // HEADS).permute(2, 0, 3, 1, 4)
        y = F.scaled_dot_product_attention(q, k, v)
        x = x + self.proj(y.transpose(1, 2).reshape(b, t, c))
        return x + self.mlp(self.ln2(x))


class ViT(nn.Module):
    def __init__(self, mode):
        super().__init__()
        self.mode = mode
        self.patch = nn.Conv2d(3, DIM, 16, 16)
        self.cls = nn.Parameter(torch.zeros(1, 1, DIM))
        self.pos = nn.Parameter(torch.zeros(1, 197, DIM))
        self.blocks = nn.ModuleList(Block() for _ in range(LAYERS))
        self.ln, self.head = nn.LayerNorm(DIM), nn.Linear(DIM, CLASSES)

    def forward(self, x):
        x = self.patch(x).flatten(2).transpose(1, 2)
        x = torch.cat([self.cls.expand(x.shape[0], -1, -1), x], dim=1) + self.pos
        for block in self.blocks:
            x = maybe_checkpoint(block, self.mode, x)
        return self.head(self.ln(x[:, 0]))


def build(mode):
    model = ViT(mode).to(DEVICE)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    batch = (torch.randn(BATCH, 3, 224, 224, device=DEVICE), torch.randint(0, CLASSES, (BATCH,), device=DEVICE))
    return model, opt, batch, lambda m, b: F.cross_entropy(m(b[0]), b[1])


fp32, bf16, ckpt = factories(build)
