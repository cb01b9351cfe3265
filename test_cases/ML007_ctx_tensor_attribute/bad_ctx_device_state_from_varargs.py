# verify: flat
# The twin of good_ctx_rng_state_sizes_and_handler.py: the trailing *args carry a device tensor
# (a running buffer the Function updates in place) and forward keeps it, and the device mask it
# draws, on ctx.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


class NoisyScale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, *args):
        (running,) = args[-1:]
        running.mul_(0.9).add_(x.detach().mean(0), alpha=0.1)
        mask = torch.rand_like(x) > 0.1
        ctx.running = running  # expect: ML007
        ctx.mask = mask  # expect: ML007
        return x * mask * running

    @staticmethod
    def backward(ctx, grad_out):
        return grad_out * ctx.mask * ctx.running, None


def main():
    layer = torch.nn.Linear(16, 16).to(device)
    running = torch.ones(16, device=device)
    optimizer = torch.optim.SGD(layer.parameters(), lr=0.01)
    for step in range(30):
        x = torch.randn(64, 16, device=device)
        loss = NoisyScale.apply(layer(x), running).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print("loss:", loss.item())


if __name__ == "__main__":
    main()
