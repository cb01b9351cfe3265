# verify: leaks
# Lightning validation_step (run without grad) keeps softmax outputs and targets on the device in self.val_outputs.
import torch
import torch.nn as nn

try:
    from lightning.pytorch import LightningModule
except ImportError:
    LightningModule = torch.nn.Module

device = "cuda" if torch.cuda.is_available() else "cpu"


class LitClassifier(LightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 1000))
        self.val_outputs = []

    def validation_step(self, batch, batch_idx):
        x, y = batch
        probs = self.net(x).softmax(dim=-1)
        self.val_outputs.append({"probs": probs.detach().cpu(), "target": y.detach().cpu()})  # expect: ML005

    def on_validation_epoch_end(self):
        probs = torch.cat([o["probs"] for o in self.val_outputs])
        target = torch.cat([o["target"] for o in self.val_outputs])
        print("val acc:", (probs.argmax(-1) == target).float().mean().item())
        self.val_outputs.clear()


def main():
    module = LitClassifier().to(device)
    module.eval()
    with torch.no_grad():  # what Lightning does around validation_step
        for i in range(30):
            batch = (torch.randn(128, 32, device=device), torch.randint(0, 1000, (128,), device=device))
            module.validation_step(batch, i)
    module.on_validation_epoch_end()


if __name__ == "__main__":
    main()
