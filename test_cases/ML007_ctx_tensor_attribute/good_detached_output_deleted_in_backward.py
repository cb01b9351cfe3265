import torch


class ReversibleSequence(torch.autograd.Function):
    """Keeps only a detached copy of its output, which backward deletes as soon as it reads it."""

    @staticmethod
    def forward(ctx, x, blocks):
        for block in blocks:
            x = block(x)
        ctx.y = x.detach()  # no graph behind it, freed by backward's `del`
        ctx.blocks = blocks
        return x

    @staticmethod
    def backward(ctx, grad_y):
        y = ctx.y
        del ctx.y
        for block in reversed(ctx.blocks):
            y, grad_y = block.backward_pass(y, grad_y)
        del ctx.blocks
        return grad_y, None
