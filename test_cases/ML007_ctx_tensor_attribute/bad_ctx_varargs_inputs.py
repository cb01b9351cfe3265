# verify: flat
# A concat Function over *tensors keeps the whole tuple of inputs on ctx.inputs.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


class ConcatLast(torch.autograd.Function):
    @staticmethod
    def forward(ctx, *tensors):
        ctx.inputs = tensors  # expect: ML007
        return torch.cat(tensors, dim=-1)

    @staticmethod
    def backward(ctx, grad_out):
        return grad_out.split([t.size(-1) for t in ctx.inputs], dim=-1)


def main():
    a, b = torch.nn.Linear(16, 32).to(device), torch.nn.Linear(16, 8).to(device)
    optimizer = torch.optim.SGD([*a.parameters(), *b.parameters()], lr=0.01)
    for step in range(30):
        x = torch.randn(64, 16, device=device)
        loss = ConcatLast.apply(a(x), b(x)).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print("loss:", loss.item())


if __name__ == "__main__":
    main()
