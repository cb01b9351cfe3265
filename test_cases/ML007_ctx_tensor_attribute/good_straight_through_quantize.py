# verify: flat
# Straight-through quantizer: an int number of levels on ctx, no tensors; aliased Function import.
import torch
from torch.autograd import Function as AutogradFunction

device = "cuda" if torch.cuda.is_available() else "cpu"


class QuantizeSTE(AutogradFunction):
    @staticmethod
    def forward(ctx, x, levels=16):
        ctx.set_materialize_grads(False)
        ctx.levels = levels
        return torch.round(x.clamp(0, 1) * (levels - 1)) / (levels - 1)

    @staticmethod
    def backward(ctx, grad_out):
        return grad_out, None


def main():
    encoder = torch.nn.Sequential(torch.nn.Linear(32, 32), torch.nn.Sigmoid()).to(device)
    optimizer = torch.optim.Adam(encoder.parameters(), lr=1e-3)
    for step in range(30):
        x = torch.rand(64, 32, device=device)
        loss = (QuantizeSTE.apply(encoder(x)) - x).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print("loss:", loss.item())


if __name__ == "__main__":
    main()
