# verify: flat
# Lightning: empty_cache() in on_validation_epoch_end runs once per validation epoch, not per step.
import torch
import torch.nn.functional as F

try:
    from lightning.pytorch import LightningModule
except ImportError:
    LightningModule = torch.nn.Module

device = "cuda" if torch.cuda.is_available() else "cpu"


class LitClassifier(LightningModule):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4))

    def training_step(self, batch, batch_idx):
        x, y = batch
        return F.cross_entropy(self.net(x), y)

    def on_validation_epoch_end(self):
        torch.cuda.empty_cache()


def main():
    module = LitClassifier().to(device)
    optimizer = torch.optim.SGD(module.parameters(), lr=0.1)
    for batch_idx in range(20):
        loss = module.training_step((torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)), batch_idx)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    module.on_validation_epoch_end()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
