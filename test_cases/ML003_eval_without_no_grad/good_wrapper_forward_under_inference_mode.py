# verify: flat
# The evaluation runs the backbone through a wrapper of this file whose forward does all it does
# inside `torch.inference_mode()`: no graph is recorded, whatever the function is named.
import torch
from torch import nn

device = "cuda" if torch.cuda.is_available() else "cpu"


class FrozenFeatures(nn.Module):
    def __init__(self, backbone):
        super().__init__()
        self.backbone = backbone

    def forward(self, images):
        with torch.inference_mode():
            features = self.backbone(images)
        return features


def evaluate_features(backbone, val_loader):
    feature_model = FrozenFeatures(backbone)
    correct = 0
    for images, labels in val_loader:
        correct += (feature_model(images).argmax(-1) == labels).sum().item()
    return correct


def main():
    backbone = nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 10)).to(device)
    backbone.eval()
    val_loader = [(torch.randn(128, 64, device=device), torch.randint(0, 10, (128,), device=device)) for _ in range(30)]
    print("correct:", evaluate_features(backbone, val_loader))


if __name__ == "__main__":
    main()
