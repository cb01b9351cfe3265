"""The AMP question of the seed thread: with a small batch, `autocast` takes *more* GPU
memory than fp32. Eight 4096x4096 linear layers (512 MiB of fp32 weights), batch 8, SGD.
`memlint estimate amp_small_batch:fp32` vs `amp_small_batch:amp` (README, "Will it fit?")."""

import torch
import torch.nn as nn

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"


def make(amp: bool):
    model = nn.Sequential(*[nn.Sequential(nn.Linear(4096, 4096), nn.ReLU()) for _ in range(8)]).to(DEVICE)
    opt = torch.optim.SGD(model.parameters(), lr=1e-3)
    x = torch.randn(8, 4096, device=DEVICE)

    def train():
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=amp):
            loss = model(x).float().pow(2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=False)  # gradients kept between steps, as before torch 2.0

    def evaluate():
        with torch.no_grad(), torch.autocast("cuda", dtype=torch.bfloat16, enabled=amp):
            model(x)

    return {"train": train, "eval": evaluate}


def fp32():
    return make(False)


def amp():
    return make(True)
