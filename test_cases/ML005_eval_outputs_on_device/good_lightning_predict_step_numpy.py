# verify: flat
# Lightning predict_step/test_step (run without grad) stores outputs as numpy arrays and per-batch scalar metrics.
import numpy as np
import torch
from torch import nn

try:
    from lightning.pytorch import LightningModule
except ImportError:
    LightningModule = torch.nn.Module

device = "cuda" if torch.cuda.is_available() else "cpu"


class LitRegressor(LightningModule):
    def __init__(self):
        super().__init__()
        self.model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 1))
        self.predictions = []
        self.test_maes = []

    def predict_step(self, batch, batch_idx):
        self.predictions.append(self.model(batch).squeeze(-1).detach().cpu().numpy())

    def test_step(self, batch, batch_idx):
        x, y = batch
        self.test_maes.append((self.model(x).squeeze(-1) - y).abs().mean())


def main():
    module = LitRegressor().to(device)
    module.eval()
    with torch.inference_mode():
        for i in range(30):
            x, y = torch.randn(256, 16, device=device), torch.randn(256, device=device)
            module.predict_step(x, i)
            module.test_step((x, y), i)
    print("preds:", np.concatenate(module.predictions).shape, "mae:", torch.stack(module.test_maes).mean().item())


if __name__ == "__main__":
    main()
