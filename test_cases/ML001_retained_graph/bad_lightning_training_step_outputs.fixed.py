# verify: flat
# Lightning `training_step` appends the returned loss to `self.training_step_outputs` without detach (warning).
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
        self.training_step_outputs = []

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self.net(x), y)
        self.training_step_outputs.append(loss.detach())  # expect: ML001
        return loss

    def on_train_epoch_end(self):
        epoch_mean = torch.stack(self.training_step_outputs).mean()
        print(f"epoch loss {epoch_mean.item():.3f}")
        self.training_step_outputs.clear()


def main():
    module = LitClassifier().to(device)
    optimizer = torch.optim.SGD(module.parameters(), lr=0.1)
    batches = [(torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)) for _ in range(20)]
    for batch_idx, batch in enumerate(batches):
        loss = module.training_step(batch, batch_idx)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    module.on_train_epoch_end()


if __name__ == "__main__":
    main()
