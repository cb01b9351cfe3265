# verify: flat
# Lightning `Trainer(detect_anomaly=True)` left on after debugging (Lightning issue 12344: 3x slower).
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

try:
    import lightning.pytorch as pl
except ImportError:
    pl = None

device = "cuda" if torch.cuda.is_available() else "cpu"


class LitClassifier(pl.LightningModule if pl else torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4))

    def forward(self, x):
        return self.net(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        return F.cross_entropy(self.net(x), y)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)


def make_trainer():
    return pl.Trainer(  # expect: ML009
        max_epochs=1,
        detect_anomaly=False,
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
    )


def main():
    data = TensorDataset(torch.randn(64, 16), torch.randint(0, 4, (64,)))
    model = LitClassifier()
    if pl is not None:
        make_trainer().fit(model, DataLoader(data, batch_size=8))
    model = model.to(device).eval()
    correct = 0
    with torch.no_grad():
        for x, y in DataLoader(data, batch_size=8):
            correct += (model(x.to(device)).argmax(1).cpu() == y).sum().item()
    print(f"train accuracy {correct / len(data):.2f}")


if __name__ == "__main__":
    main()
