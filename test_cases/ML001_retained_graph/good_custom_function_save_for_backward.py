# verify: flat
# A custom autograd Function using save_for_backward, with the loss logged as `.item()`.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


class ScaledSquare(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale: float):
        y = x * scale
        ctx.save_for_backward(y)
        ctx.scale = scale
        return y * y

    @staticmethod
    def backward(ctx, grad_out):
        (y,) = ctx.saved_tensors
        return grad_out * 2 * y * ctx.scale, None


def main():
    model = torch.nn.Linear(16, 64).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
    history = []
    for _ in range(20):
        loss = ScaledSquare.apply(model(torch.randn(32, 16, device=device)), 0.5).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        history.append(loss.item())
    print(f"final loss {history[-1]:.4f}")


if __name__ == "__main__":
    main()
