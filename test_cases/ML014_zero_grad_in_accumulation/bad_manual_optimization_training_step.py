# verify: flat
# Lightning-style manual optimization: `opt.zero_grad()` on every `training_step`, `opt.step()` every 4th batch.
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


class ManualModule(torch.nn.Module):
    """Mirrors a LightningModule with `automatic_optimization = False`."""

    def __init__(self):
        super().__init__()
        self.automatic_optimization = False
        self.net = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4))
        self._optimizer = torch.optim.SGD(self.net.parameters(), lr=0.1)

    def optimizers(self):
        return self._optimizer

    def manual_backward(self, loss):
        loss.backward()

    def training_step(self, batch, batch_idx):
        opt = self.optimizers()
        opt.zero_grad()  # expect: ML014
        x, y = batch
        loss = F.cross_entropy(self.net(x), y) / 4
        self.manual_backward(loss)
        if (batch_idx + 1) % 4 == 0:
            opt.step()
        return loss.detach()


def main():
    module = ManualModule().to(device)
    for batch_idx in range(20):
        batch = (torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device))
        loss = module.training_step(batch, batch_idx)
    print(f"last loss {loss.item() * 4:.3f}")


if __name__ == "__main__":
    main()
