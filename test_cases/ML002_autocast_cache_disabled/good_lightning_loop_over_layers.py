# A loop over a ModuleList calls each layer once per step: there is no second cast of the same weights to cache.
import lightning as L
import torch


class Stack(L.LightningModule):
    def __init__(self, width=1024, depth=12):
        super().__init__()
        self.layers = torch.nn.ModuleList(torch.nn.Linear(width, width) for _ in range(depth))

    def training_step(self, batch, batch_idx):
        x, y = batch
        for layer in self.layers:
            x = torch.relu(layer(x))
        return torch.nn.functional.mse_loss(x, y)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.01)


if __name__ == "__main__":
    L.Trainer(precision="bf16-mixed").fit(Stack())
