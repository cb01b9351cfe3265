# verify: flat
# Lightning module with a save_for_backward Swish; training_step keeps loss.detach() for logging.
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
        ctx.save_for_backward(input)
        return input * torch.sigmoid(input)

    @staticmethod
    def backward(ctx, grad_output):
        (input,) = ctx.saved_tensors
        s = torch.sigmoid(input)
        return grad_output * (s * (1 + input * (1 - s)))


class LitMLP(LightningModule):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(32, 512), nn.Linear(512, 1)
        self.train_losses = []

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = nn.functional.mse_loss(self.fc2(Swish.apply(self.fc1(x))), y)
        self.train_losses.append(loss.detach())
        return loss


def main():
    module = LitMLP().to(device)
    optimizer = torch.optim.SGD(module.parameters(), lr=0.01)
    for i in range(30):
        loss = module.training_step((torch.randn(256, 32, device=device), torch.randn(256, 1, device=device)), i)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print("mean loss:", torch.stack(module.train_losses).mean().item())


if __name__ == "__main__":
    main()
