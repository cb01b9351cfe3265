# verify: flat
# A safe-log-softmax Function keeps annotated int/float arguments and an unannotated eps on ctx, tensors via save_for_backward.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


class TemperedLogSoftmax(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x: torch.Tensor, dim: int, temperature: float, eps=1e-6):
        probs = torch.softmax(x / temperature, dim)
        ctx.dim = dim
        ctx.temperature = temperature
        ctx.eps = eps
        ctx.save_for_backward(probs)
        return torch.clamp(probs, min=eps).log()

    @staticmethod
    def backward(ctx, grad_out):
        (probs,) = ctx.saved_tensors
        grad_logp = grad_out * (probs > ctx.eps)
        grad_x = (grad_logp - probs * grad_logp.sum(ctx.dim, keepdim=True)) / ctx.temperature
        return grad_x, None, None, None


def main():
    layer = torch.nn.Linear(32, 10).to(device)
    optimizer = torch.optim.SGD(layer.parameters(), lr=0.01)
    for step in range(30):
        logp = TemperedLogSoftmax.apply(layer(torch.randn(64, 32, device=device)), -1, 2.0)
        loss = -logp[:, 0].mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print("loss:", loss.item())


if __name__ == "__main__":
    main()
