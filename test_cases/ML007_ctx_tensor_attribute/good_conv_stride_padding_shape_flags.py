# verify: flat
# A conv1d Function keeps stride, padding, the input shape and ctx.needs_input_grad on ctx: ints, a torch.Size, bools.
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


class Conv1dFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight, stride, padding):
        ctx.save_for_backward(x, weight)
        ctx.stride = stride
        ctx.padding = padding
        ctx.input_shape = x.shape
        ctx.needs = ctx.needs_input_grad
        return F.conv1d(x, weight, stride=stride, padding=padding)

    @staticmethod
    def backward(ctx, grad_out):
        x, weight = ctx.saved_tensors
        grad_x = torch.nn.grad.conv1d_input(ctx.input_shape, weight, grad_out, ctx.stride, ctx.padding)
        grad_w = torch.nn.grad.conv1d_weight(x, weight.shape, grad_out, ctx.stride, ctx.padding) if ctx.needs[1] else None
        return grad_x, grad_w, None, None


def main():
    weight = torch.nn.Parameter(torch.randn(8, 4, 3, device=device) * 0.1)
    optimizer = torch.optim.SGD([weight], lr=0.01)
    for step in range(30):
        loss = Conv1dFn.apply(torch.randn(16, 4, 64, device=device), weight, 2, 1).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print("loss:", loss.item())


if __name__ == "__main__":
    main()
