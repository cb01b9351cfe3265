# `forward` hands its inputs only to a compiled kernel, so nothing in it shows what they are; the module
# applies the Functions through top-level aliases (`lookup = LookupOp.apply`), and those calls show them:
# a parameter as `table` (kept on `ctx`, where backward does not free it), and ints as `blocks` and
# `groups` (numbers on `ctx`, the look-alike: `BlockOp` keeps no tensor).
import torch

import kernels


class LookupOp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, table, scale):
        out, index = kernels.lookup_forward(x, table, scale)
        ctx.table = table  # expect: ML007
        ctx.index = index
        return out

    @staticmethod
    def backward(ctx, grad):
        return kernels.lookup_backward(grad, ctx.table, ctx.index), None, None


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


class Lookup(torch.nn.Module):
    def __init__(self, rows, dim, groups):
        super().__init__()
        self.table = torch.nn.Parameter(torch.randn(rows, dim))
        self.groups = groups
        self.blocks = rows // groups

    def forward(self, x):
        return blocked(lookup(x, self.table, 0.5), self.blocks, self.groups)
