# verify: leaks
# Fast-LLM case: a custom linear Function keeps its input and weight on ctx, and the loop appends the loss after backward.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


class LinearFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight):
        ctx.x = x  # expect: ML007
        ctx.weight = weight  # expect: ML007
        return x @ weight.t()

    @staticmethod
    def backward(ctx, grad_out):
        return grad_out @ ctx.weight, grad_out.t() @ ctx.x


def main():
    weight = torch.nn.Parameter(torch.randn(64, 512, device=device) * 0.01)
    optimizer = torch.optim.SGD([weight], lr=0.01)
    losses = []
    for step in range(30):
        x = torch.randn(512, 512, device=device)
        loss = LinearFn.apply(x, weight).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.detach())  # expect: ML001
    print("mean loss:", torch.stack(losses).mean().item())


if __name__ == "__main__":
    main()
