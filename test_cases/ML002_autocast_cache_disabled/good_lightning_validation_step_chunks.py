# verify: flat
# Lightning validation_step runs without grad, so a chunk loop under autocast(cache_enabled=False) saves nothing.
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

    def validation_step(self, batch, batch_idx):
        x, y = batch
        val_loss = 0.0
        with torch.autocast(device_type=x.device.type, dtype=torch.bfloat16, cache_enabled=False):
            for x_chunk, y_chunk in zip(x.chunk(4), y.chunk(4)):
                val_loss += F.cross_entropy(self.net(x_chunk).float(), y_chunk).item() / 4
        self.log("val_loss", val_loss)


def main():
    module = LitClassifier().to(device)
    module.eval()
    with torch.no_grad():  # what Lightning's validation loop does around validation_step
        for batch_idx in range(10):
            module.validation_step((torch.randn(32, 16, device=device), torch.randint(0, 4, (32,), device=device)), batch_idx)
    print("validated")


if __name__ == "__main__":
    main()
