# verify: flat
# A loop over the indices of a list of inputs runs the model on one element per step and keeps only
# numbers: a loop over batches by use, whatever its names, in a function that never differentiates.
import torch
from torch import nn

device = "cuda" if torch.cuda.is_available() else "cpu"


def activation_maxima(model: nn.Module, cached, count):
    maxima = []
    for j in range(count):
        x = cached[j].to(device)
        out = model(x)  # expect: ML003
        maxima.append(out.abs().amax().item())
    return maxima


def main():
    model = nn.Sequential(nn.Linear(256, 1024), nn.ReLU(), nn.Linear(1024, 256)).to(device)
    cached = [torch.randn(64, 256) for _ in range(20)]
    print(max(activation_maxima(model, cached, len(cached))))


if __name__ == "__main__":
    main()
