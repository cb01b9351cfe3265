# verify: leaks
"""A decode loop through 4×Linear(4096) under
`autocast(bfloat16, cache_enabled=False)`, with grad: every step casts every
weight to bf16 again, and autograd saves each copy (the graph chains the
steps): 4 × 32 MiB = +128 MiB per step. With the cast cache on (memlint's
fix) the weights are cast once and only the bf16 activations stay:
4 × 8 KiB = 0.03 MiB per step.

`--size small` (the default without a GPU): Linear(1024), 4 × 2 MiB = 8 MiB.
"""
import argparse

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--size", choices=["full", "small"], default="full" if torch.cuda.is_available() else "small")
parser.add_argument("--steps", type=int, default=60)
args = parser.parse_args()
device = "cuda" if torch.cuda.is_available() else "cpu"
width = 4096 if args.size == "full" else 1024

torch.manual_seed(0)
model = torch.nn.Sequential(*[torch.nn.Linear(width, width) for _ in range(4)]).to(device)

h = torch.randn(1, width, device=device)
with torch.autocast(device_type=device, dtype=torch.bfloat16, cache_enabled=False):
    for step in range(args.steps):
        h = model(h)
print(f"final norm {h.float().norm().item():.4f}")
