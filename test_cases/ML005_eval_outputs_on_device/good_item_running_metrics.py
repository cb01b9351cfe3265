# verify: flat
# @torch.no_grad() validate() keeps running totals as Python numbers with .item().
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


@torch.no_grad()
def validate(model, loader):
    model.eval()
    total_loss, correct, seen = 0.0, 0, 0
    for images, targets in loader:
        images, targets = images.to(device), targets.to(device)
        output = model(images)
        total_loss += F.cross_entropy(output, targets, reduction="sum").item()
        correct += (output.argmax(dim=1) == targets).sum().item()
        seen += targets.numel()
    return total_loss / seen, correct / seen


def main():
    model = nn.Sequential(nn.Flatten(), nn.Linear(28 * 28, 128), nn.ReLU(), nn.Linear(128, 10)).to(device)
    loader = [(torch.randn(64, 1, 28, 28), torch.randint(0, 10, (64,))) for _ in range(30)]
    print("val loss %.3f acc %.3f" % validate(model, loader))


if __name__ == "__main__":
    main()
