# verify: leaks
# Lightning test_step keeps the argmax predictions of every test batch on the device.
import torch
from torch import nn

try:
    from lightning.pytorch import LightningModule
except ImportError:
    LightningModule = torch.nn.Module

device = "cuda" if torch.cuda.is_available() else "cpu"


class LitSegmenter(LightningModule):
    def __init__(self):
        super().__init__()
        self.model = nn.Conv2d(3, 6, kernel_size=3, padding=1)
        self.test_preds = []

    def test_step(self, batch, batch_idx):
        images, masks = batch
        self.test_preds.append(self.model(images).argmax(dim=1).detach().cpu())  # expect: ML005

    def on_test_epoch_end(self):
        print("test masks:", torch.stack(self.test_preds).shape)
        self.test_preds.clear()


def main():
    module = LitSegmenter().to(device)
    module.eval()
    with torch.inference_mode():
        for i in range(30):
            batch = (torch.randn(16, 3, 64, 64, device=device), torch.randint(0, 6, (16, 64, 64), device=device))
            module.test_step(batch, i)
    module.on_test_epoch_end()


if __name__ == "__main__":
    main()
