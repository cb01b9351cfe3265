# verify: flat
# Beside `_pair(...)` tuples and a bool, the Function parks a comparison of a tensor (a bool tensor, `x > 0`)
# and a buffer the size of its input on ctx: both are tensors that live as long as the graph.
import torch
import torch.nn.functional as F
from torch.nn.modules.utils import _pair

device = "cuda" if torch.cuda.is_available() else "cpu"


class MaskedConv2dFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight, stride=1, padding=0):
        ctx.stride = _pair(stride)
        ctx.padding = _pair(padding)
        ctx.positive = bool(x.numel())
        ctx.mask = x > 0  # expect: ML007
        ctx.columns = x.new_empty(x.shape)  # expect: ML007
        ctx.save_for_backward(weight)
        return F.conv2d(x * ctx.mask, weight, None, ctx.stride, ctx.padding)

    @staticmethod
    def backward(ctx, grad_out):
        (weight,) = ctx.saved_tensors
        shape = ctx.mask.shape
        grad_x = torch.nn.grad.conv2d_input(shape, weight, grad_out, ctx.stride, ctx.padding) * ctx.mask
        return grad_x, None, None, None


def main():
    weight = torch.randn(8, 3, 3, 3, device=device, requires_grad=True)
    optimizer = torch.optim.SGD([weight], lr=0.01)
    for step in range(30):
        x = torch.randn(4, 3, 16, 16, device=device, requires_grad=True)
        loss = MaskedConv2dFn.apply(x, weight, 1, 1).square().mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print("loss:", loss.item())


if __name__ == "__main__":
    main()
