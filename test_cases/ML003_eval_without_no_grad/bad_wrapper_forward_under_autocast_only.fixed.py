# verify: flat
# The wrapper's forward enters autocast, not a no-grad mode: the backbone records a graph on every
# evaluation batch (dropped with each batch's output here, so memory stays flat; the time and the
# peak are still spent).
import torch
from torch import nn

device = "cuda" if torch.cuda.is_available() else "cpu"


class CastFeatures(nn.Module):
    def __init__(self, backbone):
        super().__init__()
        self.backbone = backbone

    def forward(self, images):
        with torch.autocast(device, dtype=torch.bfloat16):
            features = self.backbone(images)
        return features


@torch.no_grad()
def evaluate_features(backbone, val_loader):
    feature_model = CastFeatures(backbone)
    correct = 0
    for images, labels in val_loader:
        correct += (feature_model(images).argmax(-1) == labels).sum().item()  # expect: ML003
    return correct


def main():
    backbone = nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 10)).to(device)
    backbone.eval()
    val_loader = [(torch.randn(128, 64, device=device), torch.randint(0, 10, (128,), device=device)) for _ in range(30)]
    print("correct:", evaluate_features(backbone, val_loader))


if __name__ == "__main__":
    main()
