# verify: flat
# Lightning `self.log("loss", loss)` and `return loss` hand the loss to the framework; nothing is kept.
import torch
import torch.nn.functional as F

try:
    from lightning.pytorch import LightningModule
except ImportError:

    class LightningModule(torch.nn.Module):
        def log(self, name, value, **kwargs):
            pass


device = "cuda" if torch.cuda.is_available() else "cpu"


class LitRegressor(LightningModule):
    def __init__(self):
        super().__init__()
        self.model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 1))

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.mse_loss(self.model(x), y)
        self.log("train_loss", loss, prog_bar=True)
        return loss


def main():
    module = LitRegressor().to(device)
    optimizer = torch.optim.Adam(module.parameters(), lr=1e-3)
    batches = [(torch.randn(8, 16, device=device), torch.randn(8, 1, device=device)) for _ in range(20)]
    for batch_idx, batch in enumerate(batches):
        loss = module.training_step(batch, batch_idx)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"last loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
