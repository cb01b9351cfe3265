"""A diffusion UNet (DDPM-style: time embedding, residual blocks, attention at 16x16),
64x64 RGB, batch 32, noise-prediction MSE, AdamW."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from common import DEVICE, factories, maybe_checkpoint

BATCH, SIZE, BASE, TEMB = 32, 64, 128, 512


class ResBlock(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.n1, self.c1 = nn.GroupNorm(32, cin), nn.Conv2d(cin, cout, 3, padding=1)
        self.t = nn.Linear(TEMB, cout)
        self.n2, self.c2 = nn.GroupNorm(32, cout), nn.Conv2d(cout, cout, 3, padding=1)
        self.skip = nn.Conv2d(cin, cout, 1) if cin != cout else nn.Identity()

    def forward(self, x, temb):
        h = self.c1(F.silu(self.n1(x))) + self.t(temb)[:, :, None, None]
        return self.skip(x) + self.c2(F.silu(self.n2(h)))


class Attention(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.norm, self.qkv, self.out = nn.GroupNorm(32, c), nn.Conv2d(c, 3 * c, 1), nn.Conv2d(c, c, 1)

    def forward(self, x, temb=None):
        b, c, h, w = x.shape
        q, k, v = self.qkv(self.norm(x)).reshape(b, 3, 4, c // 4, h * w).permute(1, 0, 2, 4, 3)
        y = F.scaled_dot_product_attention(q, k, v).permute(0, 1, 3, 2).reshape(b, c, h, w)
        return x + self.out(y)


class UNet(nn.Module):
    def __init__(self, mode):
        super().__init__()
        self.mode = mode
        self.temb = nn.Sequential(nn.Linear(BASE, TEMB), nn.SiLU(), nn.Linear(TEMB, TEMB))
        self.inp = nn.Conv2d(3, BASE, 3, padding=1)
        chans = [BASE, BASE * 2, BASE * 2, BASE * 4]
        self.down, self.up = nn.ModuleList(), nn.ModuleList()
        c = BASE
        for i, cout in enumerate(chans):
            self.down.append(nn.ModuleList([ResBlock(c, cout), ResBlock(cout, cout),
                                            Attention(cout) if i == 2 else nn.Identity()]))
            c = cout
        self.mid = nn.ModuleList([ResBlock(c, c), Attention(c), ResBlock(c, c)])
        for i, cout in reversed(list(enumerate(chans))):
            self.up.append(nn.ModuleList([ResBlock(c + cout, cout), ResBlock(cout, cout),
                                          Attention(cout) if i == 2 else nn.Identity()]))
            c = cout
        self.out = nn.Sequential(nn.GroupNorm(32, c), nn.SiLU(), nn.Conv2d(c, 3, 3, padding=1))

    def _run(self, layer, x, temb):
        if isinstance(layer, nn.Identity):
            return x
        return maybe_checkpoint(layer, self.mode, x, temb)

    def forward(self, x, t):
        half = BASE // 2
        freqs = torch.exp(-math.log(10000) * torch.arange(half, device=x.device) / half)
        temb = self.temb(torch.cat([torch.sin(t[:, None] * freqs), torch.cos(t[:, None] * freqs)], dim=1))
        x, skips = self.inp(x), []
        for i, (r1, r2, attn) in enumerate(self.down):
            x = self._run(attn, self._run(r2, self._run(r1, x, temb), temb), temb)
            skips.append(x)
            if i < len(self.down) - 1:
                x = F.avg_pool2d(x, 2)
        for layer in self.mid:
            x = self._run(layer, x, temb)
        for i, (r1, r2, attn) in enumerate(self.up):
            x = self._run(r1, torch.cat([x, skips.pop()], dim=1), temb)
            x = self._run(attn, self._run(r2, x, temb), temb)
            if i < len(self.up) - 1:
                x = F.interpolate(x, scale_factor=2, mode="nearest")
        return self.out(x)


def build(mode):
    model = UNet(mode).to(DEVICE)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    batch = (torch.randn(BATCH, 3, SIZE, SIZE, device=DEVICE), torch.randint(0, 1000, (BATCH,), device=DEVICE).float(),
             torch.randn(BATCH, 3, SIZE, SIZE, device=DEVICE))
    return model, opt, batch, lambda m, b: F.mse_loss(m(b[0], b[1]), b[2])


fp32, bf16, ckpt = factories(build)
