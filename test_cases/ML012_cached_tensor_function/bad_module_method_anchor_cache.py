# verify: leaks
# An `lru_cache` on a detector's method keeps every evaluated checkpoint alive (`self` is part of each key).
import functools

import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


class Detector(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = torch.nn.Sequential(torch.nn.Linear(64, 1024), torch.nn.ReLU(), torch.nn.Linear(1024, 512))
        self.head = torch.nn.Linear(512, 4)

    @functools.lru_cache(maxsize=32)  # expect: ML012
    def anchors(self, height, width):
        ys, xs = torch.meshgrid(torch.arange(height), torch.arange(width), indexing="ij")
        return torch.stack([xs, ys], -1).reshape(-1, 2).float().to(self.head.weight.device)

    def forward(self, features):
        boxes = self.head(self.backbone(features))
        return boxes[:, :2] + self.anchors(4, 4)[: boxes.shape[0]]


def main():
    features = torch.randn(16, 64, device=device)
    scores = []
    with torch.no_grad():
        for seed in range(24):  # one freshly loaded checkpoint per seed
            torch.manual_seed(seed)
            model = Detector().to(device).eval()
            scores.append(model(features).abs().mean().item())
    print(f"mean score {sum(scores) / len(scores):.3f}")


if __name__ == "__main__":
    main()
