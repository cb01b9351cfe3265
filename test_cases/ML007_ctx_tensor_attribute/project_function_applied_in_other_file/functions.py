# Linted as one project with layers.py, which applies these Functions. `forward` hands its inputs to a
# compiled kernel only, so nothing here shows what they are; layers.py hands `LookupOp.apply` a
# parameter as `table` (kept on `ctx`, where backward does not free it), and numbers as `scale` and
# `groups`. `BlockOp` is the look-alike: every call hands `blocks` an int, and `ctx.blocks` is a number.
import torch

import kernels


class LookupOp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, table, scale):
        out, index = kernels.lookup_forward(x, table, scale)
        ctx.table = table  # expect: ML007
        ctx.scale = scale
        ctx.index = index
        return out

    @staticmethod
    def backward(ctx, grad):
        return kernels.lookup_backward(grad, ctx.table, ctx.index, ctx.scale), None, None


class BlockOp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, blocks, groups):
        ctx.blocks = blocks
        ctx.groups = groups
        return kernels.block_forward(x, blocks, groups)

    @staticmethod
    def backward(ctx, grad):
        return kernels.block_backward(grad, ctx.blocks, ctx.groups), None, None
