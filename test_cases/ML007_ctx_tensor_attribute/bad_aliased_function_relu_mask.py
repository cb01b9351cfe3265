# verify: flat
# Aliased `Function` import; a custom ReLU stores its boolean mask tensor (x > 0) as ctx.mask.
import torch
from torch.autograd import Function as AutogradFunction

device = "cuda" if torch.cuda.is_available() else "cpu"


class MyReLU(AutogradFunction):
    @staticmethod
    def forward(ctx, x):
        ctx.mask = x > 0  # expect: ML007
        return x.clamp(min=0)

    @staticmethod
    def backward(ctx, grad_out):
        return grad_out * ctx.mask


def main():
    layer = torch.nn.Linear(128, 128).to(device)
    optimizer = torch.optim.SGD(layer.parameters(), lr=0.01)
    for step in range(30):
        x = torch.randn(256, 128, device=device)
        loss = MyReLU.apply(layer(x)).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print("loss:", loss.item())


if __name__ == "__main__":
    main()
