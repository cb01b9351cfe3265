# Linted as one project with layers.py, which imports the aliases this file binds to the Functions'
# `apply` (`lookup = LookupOp.apply`). `forward` hands its inputs to a compiled kernel only, so nothing
# here shows what they are; layers.py hands `lookup` a parameter as `table` (kept on `ctx`, where backward
# does not free it) and a number as `scale`. `blocked` is the look-alike: every call hands it ints.
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


lookup = LookupOp.apply
blocked = BlockOp.apply
