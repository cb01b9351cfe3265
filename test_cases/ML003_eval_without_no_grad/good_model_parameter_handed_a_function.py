# `evaluate` runs what it is handed as `model` over a loader with grad on, but its only caller hands
# it a plain function of this file: the name `model` lies, no module runs and no graph is recorded.
import torch


def evaluate(model, loader):
    scores = []
    for x in loader:
        scores.append(model(x).mean().item())
    return scores


def rms(x):
    return x.pow(2).mean().sqrt()


def main():
    loader = [torch.randn(8, 16) for _ in range(4)]
    return evaluate(rms, loader)
