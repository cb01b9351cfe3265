# verify: leaks
# Lightning module using a custom Function that keeps its annotated input on ctx; training_step appends the raw loss.
import torch
from torch import nn

try:
    from lightning.pytorch import LightningModule
except ImportError:
    LightningModule = torch.nn.Module

device = "cuda" if torch.cuda.is_available() else "cpu"


class Swish(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input: torch.Tensor) -> torch.Tensor:
        ctx.input = input  # expect: ML007
        return input * torch.sigmoid(input)

    @staticmethod
    def backward(ctx, grad_output):
        s = torch.sigmoid(ctx.input)
        return grad_output * (s * (1 + ctx.input * (1 - s)))


class LitMLP(LightningModule):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(32, 512), nn.Linear(512, 1)
        self.train_losses = []

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = nn.functional.mse_loss(self.fc2(Swish.apply(self.fc1(x))), y)
        self.train_losses.append(loss.detach())  # expect: ML001
        return loss


def main():
    module = LitMLP().to(device)
    optimizer = torch.optim.SGD(module.parameters(), lr=0.01)
    for i in range(30):
        loss = module.training_step((torch.randn(256, 32, device=device), torch.randn(256, 1, device=device)), i)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print("losses kept:", len(module.train_losses))


if __name__ == "__main__":
    main()
