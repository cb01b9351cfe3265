# verify: leaks
# Kept losses hold graphs whose custom Function parks a fresh tensor on ctx: backward does not free it (error).
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


class ScaledSquare(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale: float):
        y = x * scale
        ctx.y = y  # expect: ML007
        ctx.scale = scale
        return y * y

    @staticmethod
    def backward(ctx, grad_out):
        return grad_out * 2 * ctx.y * ctx.scale, None


def main():
    model = torch.nn.Linear(16, 1024).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
    losses = []
    for _ in range(20):
        out = ScaledSquare.apply(model(torch.randn(512, 16, device=device)), 0.5)
        loss = out.mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss)  # expect: ML001
    print(f"final loss {losses[-1].item():.4f}")


if __name__ == "__main__":
    main()
