"""What every benchmark program shares: the device, the precision modes, the step.

Each program module defines `build(mode)` -> (model, optimizer, batch, loss_fn) and
the factories `fp32`, `bf16`, `ckpt` (what `memlint estimate module:function` and
`measure_gpu.py` call). `mode` is "fp32", "bf16" (autocast) or "ckpt" (activation
checkpointing, fp32)."""

from __future__ import annotations

import torch
from torch.utils.checkpoint import checkpoint

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"


def maybe_checkpoint(block, mode: str, *args):
    if mode == "ckpt" and block.training:
        return checkpoint(block, *args, use_reentrant=False)
    return block(*args)


def step_function(model, optimizer, batch, loss_fn, mode: str):
    def step():
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=mode == "bf16"):
            loss = loss_fn(model, batch)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)

    return step


def factories(build):
    """fp32, bf16, ckpt factories of a `build(mode)`."""
    def make(mode):
        def factory():
            return step_function(*build(mode), mode)
        factory.__name__ = mode
        return factory

    return make("fp32"), make("bf16"), make("ckpt")
