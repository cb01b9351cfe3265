# verify: flat
# Linear Function saves input and weight properly but parks the Optional[Tensor] bias on ctx.bias.
from typing import Optional

import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


class LinearWithBias(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x: torch.Tensor, weight: torch.Tensor, bias: Optional[torch.Tensor] = None):
        ctx.save_for_backward(x, weight)
        ctx.bias = bias  # expect: ML007
        out = x @ weight.t()
        return out if bias is None else out + bias

    @staticmethod
    def backward(ctx, grad_out):
        x, weight = ctx.saved_tensors
        grad_bias = grad_out.sum(0) if ctx.bias is not None else None
        return grad_out @ weight, grad_out.t() @ x, grad_bias


def main():
    weight = torch.nn.Parameter(torch.randn(16, 64, device=device) * 0.1)
    bias = torch.nn.Parameter(torch.zeros(16, device=device))
    optimizer = torch.optim.SGD([weight, bias], lr=0.01)
    for step in range(30):
        loss = LinearWithBias.apply(torch.randn(128, 64, device=device), weight, bias).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print("loss:", loss.item())


if __name__ == "__main__":
    main()
