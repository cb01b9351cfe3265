# verify: flat
# A deformable-conv-like Function keeps `_pair(...)` tuples of ints, a bool (`bias is not None`) and two 0-element
# scratch buffers on ctx, like basicsr's DeformConvFunction: none of them holds memory or a graph.
import torch
import torch.nn.functional as F
from torch.nn.modules.utils import _pair

device = "cuda" if torch.cuda.is_available() else "cpu"


class Conv2dFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight, bias=None, stride=1, padding=0):
        ctx.stride = _pair(stride)
        ctx.padding = _pair(padding)
        ctx.with_bias = bias is not None
        ctx.save_for_backward(x, weight)
        ctx.bufs_ = [x.new_empty(0), x.new_empty(0)]  # filled by an extension in the real code
        return F.conv2d(x, weight, bias, ctx.stride, ctx.padding)

    @staticmethod
    def backward(ctx, grad_out):
        x, weight = ctx.saved_tensors
        grad_x = torch.nn.grad.conv2d_input(x.shape, weight, grad_out, ctx.stride, ctx.padding)
        grad_w = torch.nn.grad.conv2d_weight(x, weight.shape, grad_out, ctx.stride, ctx.padding)
        grad_b = grad_out.sum((0, 2, 3)) if ctx.with_bias else None
        return grad_x, grad_w, grad_b, None, None


def main():
    weight = torch.randn(8, 3, 3, 3, device=device, requires_grad=True)
    bias = torch.zeros(8, device=device, requires_grad=True)
    optimizer = torch.optim.SGD([weight, bias], lr=0.01)
    for step in range(30):
        out = Conv2dFn.apply(torch.randn(4, 3, 16, 16, device=device), weight, bias, 1, 1)
        loss = out.square().mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print("loss:", loss.item())


if __name__ == "__main__":
    main()
