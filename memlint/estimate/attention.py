"""The memory layout of CUDA's fused attention output, for a fake run that computes attention
with the CPU's fused kernel.

Both keep the same tensors for backward (the output and its logsumexp); what differs is the
output's layout, and so whether the reshape that usually follows copies it. The CPU's kernel and
CUDA's flash attention allocate the output in the query's layout; CUDA's memory-efficient kernel
allocates it as (batch, length, heads, dim) (`_efficient_attention_forward`) and returns it
transposed. `nn.MultiheadAttention` projects the queries in (length, batch) order and ends with
`permute(2, 0, 1, 3).reshape(...)`: free in the query's layout, a copy of the output from the
memory-efficient kernel, which the output projection keeps for backward (32 MiB a layer for a
6-layer encoder at batch 64, length 256, width 512: 4.5% of its peak).

Which kernel runs: PyTorch tries flash attention first, which needs half precision (fp16 or
bf16), no attention mask and a head size of at most 256; then the memory-efficient kernel (fp32
too, and masks); neither takes inputs whose last dimension is strided (the math path does, on
the CPU too). Either can be turned off (`torch.backends.cuda.enable_flash_sdp(False)`,
`sdpa_kernel`), which the fake run reads as the program set it.
"""

from __future__ import annotations

import torch

FLASH_HEAD_LIMIT = 256


def memory_efficient(out: torch.Tensor, inputs: tuple, attn_mask) -> bool:
    """Whether CUDA runs the memory-efficient kernel for a call on `inputs` (query, key, value)
    that produced `out` (its dtype is the one the kernel ran in, after autocast)."""
    if any(isinstance(t, torch.Tensor) and t.dim() and t.stride(-1) != 1 and t.shape[-1] != 1
           for t in (*inputs, attn_mask)):
        return False  # no fused kernel takes it: the math path (the CPU's too), contiguous outputs
    flash = (out.dtype in (torch.float16, torch.bfloat16) and attn_mask is None
             and out.shape[-1] <= FLASH_HEAD_LIMIT and torch.backends.cuda.flash_sdp_enabled())
    return not flash and torch.backends.cuda.mem_efficient_sdp_enabled()


def efficient_layout(out: torch.Tensor) -> torch.Tensor:
    """`out` (batch, heads, length, dim) laid out as the memory-efficient kernel allocates it,
    over the same storage (no allocation; values are not computed in a fake run anyway)."""
    if out.dim() != 4 or out.storage_offset() != 0 or not _dense(out):
        return out
    batch, heads, length, dim = out.shape
    strides = (length * heads * dim, dim, heads * dim, 1)
    if out.stride() == strides:
        return out
    return _Relayout.apply(out, strides)


def _dense(t: torch.Tensor) -> bool:
    """The elements of `t` fill its storage exactly, in some order of its dimensions."""
    order = sorted(range(t.dim()), key=lambda d: t.stride(d))
    expected = 1
    for d in order:
        if t.stride(d) != expected and t.shape[d] != 1:
            return False
        expected *= t.shape[d]
    return True


class _Relayout(torch.autograd.Function):
    """A view with other strides whose gradient passes through unchanged (`Tensor.as_strided`'s
    own backward would allocate a buffer the size of the storage, which the real kernel does not)."""

    @staticmethod
    def forward(ctx, out, strides):
        return out.as_strided(out.shape, strides)

    @staticmethod
    def backward(ctx, grad):
        return grad, None
