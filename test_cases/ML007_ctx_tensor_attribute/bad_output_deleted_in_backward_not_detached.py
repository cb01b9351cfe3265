import torch


class ReversibleSequence(torch.autograd.Function):
    """The output itself on ctx: deleted by backward, but kept (with the graph it closes a cycle
    with) whenever a graph is dropped without backward, e.g. an evaluation pass with grad on."""

    @staticmethod
    def forward(ctx, x, blocks):
        for block in blocks:
            x = block(x)
        ctx.y = x  # expect: ML007
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
