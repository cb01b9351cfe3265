# verify: leaks
"""A custom autograd Function keeps two n×n fp32 tensors on `ctx` (its input
and an intermediate) instead of `save_for_backward`, and the loop appends
each loss after backward. Backward frees saved tensors, not `ctx`
attributes: each kept loss keeps its graph, the graph keeps `ctx.x` and
`ctx.e`, and, through the leaf `x`, its gradient: 3 × 64 MiB = +192 MiB per
iteration for n = 4096. With `losses.append(loss.detach())` (memlint's fix)
nothing is kept. (Not `ctx.y = output`: that is a reference cycle, freed
only by the garbage collector, and it grows even with the fix.)

`--size small` (the default without a GPU): n = 1024, 3 × 4 MiB = 12 MiB.
"""
import argparse

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--size", choices=["full", "small"], default="full" if torch.cuda.is_available() else "small")
parser.add_argument("--steps", type=int, default=60)
args = parser.parse_args()
device = "cuda" if torch.cuda.is_available() else "cpu"
n = 4096 if args.size == "full" else 1024


class ScaledExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        e = x.exp()
        ctx.x = x  # should be ctx.save_for_backward(x, e)
        ctx.e = e
        return e * 2

    @staticmethod
    def backward(ctx, grad):
        return grad * 2 * ctx.e


def batches(count):
    for _ in range(count):
        yield torch.randn(n, n, device=device, requires_grad=True)


torch.manual_seed(0)
losses = []
for x in batches(args.steps):
    loss = ScaledExp.apply(x).mean()
    loss.backward()
    losses.append(loss)
print(f"mean loss {torch.stack(losses).mean().item():.4f}")
