# verify: flat
# Lightning runs validation_step without grad, so `self(x)` in it is fine; main() drives it the same way.
import torch
import torch.nn.functional as F

try:
    from lightning.pytorch import LightningModule
except ImportError:

    class LightningModule(torch.nn.Module):
        def log(self, name, value, **kwargs):
            pass


device = "cuda" if torch.cuda.is_available() else "cpu"


class LitClassifier(LightningModule):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4))

    def forward(self, x):
        return self.net(x)

    def validation_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        self.log("val_loss", F.cross_entropy(logits, y))
        self.log("val_acc", (logits.argmax(dim=1) == y).float().mean())


def main():
    module = LitClassifier().to(device)
    module.eval()
    with torch.no_grad():  # Lightning's validation loop
        for batch_idx in range(20):
            module.validation_step((torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)), batch_idx)
    print("validated")


if __name__ == "__main__":
    main()
