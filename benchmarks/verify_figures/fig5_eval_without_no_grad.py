# verify: leaks
"""An evaluation loop without `torch.no_grad()` keeps `out.sum()` per batch:
each sum keeps its graph and every activation it saved. 4×Linear(2048)+GELU,
batch 512: the input (4 MiB), four Linear outputs and three GELU outputs
(7 × 4 MiB) = +32 MiB per batch. memlint's fixes (`@torch.no_grad()` on
`evaluate`, `.detach()` on the kept sum) make it flat.

`--size small` (the default without a GPU): width 512, 32/4 = 8 MiB.
"""
import argparse

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--size", choices=["full", "small"], default="full" if torch.cuda.is_available() else "small")
parser.add_argument("--batches", type=int, default=60)
args = parser.parse_args()
device = "cuda" if torch.cuda.is_available() else "cpu"
width = 2048 if args.size == "full" else 512
batch = 512


def batches(count):
    for _ in range(count):
        yield torch.randn(batch, width, device=device)


def evaluate(model, loader):
    model.eval()
    scores = []
    for x in loader:
        out = model(x)
        scores.append(out.sum())
    return scores


torch.manual_seed(0)
layers = []
for _ in range(4):
    layers += [torch.nn.Linear(width, width), torch.nn.GELU()]
model = torch.nn.Sequential(*layers).to(device)
scores = evaluate(model, batches(args.batches))
print(f"mean score {torch.stack(scores).mean().item():.4f}")
