# verify: flat
"""The loop of fig2 (4×Linear(2048)+GELU, batch 256, losses appended, no
backward) under `torch.no_grad()`: no graph is recorded, so the kept losses
are plain scalars: flat.
"""
import argparse

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--size", choices=["full", "small"], default="full" if torch.cuda.is_available() else "small")
parser.add_argument("--steps", type=int, default=60)
args = parser.parse_args()
device = "cuda" if torch.cuda.is_available() else "cpu"
width = 2048 if args.size == "full" else 512
batch = 256


def batches(count):
    for _ in range(count):
        yield torch.randn(batch, width, device=device)


torch.manual_seed(0)
layers = []
for _ in range(4):
    layers += [torch.nn.Linear(width, width), torch.nn.GELU()]
model = torch.nn.Sequential(*layers).to(device)

losses = []
with torch.no_grad():
    for x in batches(args.steps):
        loss = model(x).pow(2).mean()
        losses.append(loss)
print(f"mean loss {torch.stack(losses).mean().item():.4f}")
