# verify: flat
# A hand-written `validate_epoch` on a LightningModule is not a Lightning hook: Lightning does not disable grad for it.
import torch

try:
    from lightning.pytorch import LightningModule
except ImportError:
    LightningModule = torch.nn.Module

device = "cuda" if torch.cuda.is_available() else "cpu"


class LitClassifier(LightningModule):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4))

    def forward(self, x):
        return self.net(x)

    @torch.no_grad()
    def validate_epoch(self, loader):
        hits = 0
        for x, y in loader:
            logits = self(x)  # expect: ML003
            hits += (logits.argmax(dim=1) == y).sum().item()
        return hits / (len(loader) * 8)


def main():
    module = LitClassifier().to(device)
    loader = [(torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)) for _ in range(20)]
    print(f"val accuracy {module.validate_epoch(loader):.2f}")


if __name__ == "__main__":
    main()
