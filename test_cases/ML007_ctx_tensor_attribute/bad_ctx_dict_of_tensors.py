# verify: flat
# A custom dropout Function keeps a dict of tensors (input and mask) on ctx instead of save_for_backward.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


class ScaledDropout(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, p):
        mask = torch.rand_like(x) > p
        ctx.buffers = {"input": x, "mask": mask}  # expect: ML007
        ctx.p = p
        return x * mask / (1 - p)

    @staticmethod
    def backward(ctx, grad_out):
        return grad_out * ctx.buffers["mask"] / (1 - ctx.p), None


def main():
    layer = torch.nn.Linear(64, 64).to(device)
    optimizer = torch.optim.SGD(layer.parameters(), lr=0.01)
    for step in range(30):
        x = torch.randn(128, 64, device=device)
        loss = ScaledDropout.apply(layer(x), 0.1).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print("loss:", loss.item())


if __name__ == "__main__":
    main()
