# verify: flat
# A bilinear-score Function parks both inputs on ctx as a tuple (ctx.saved = (a, b)); no graph is kept, so no growth.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


class BilinearScore(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.saved = (a, b)  # expect: ML007
        return torch.einsum("bi,bi->b", a, b)

    @staticmethod
    def backward(ctx, grad_out):
        a, b = ctx.saved
        return grad_out[:, None] * b, grad_out[:, None] * a


def main():
    proj = torch.nn.Linear(32, 32).to(device)
    optimizer = torch.optim.SGD(proj.parameters(), lr=0.01)
    for step in range(30):
        a, b = torch.randn(128, 32, device=device), torch.randn(128, 32, device=device)
        loss = BilinearScore.apply(proj(a), b).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print("loss:", loss.item())


if __name__ == "__main__":
    main()
