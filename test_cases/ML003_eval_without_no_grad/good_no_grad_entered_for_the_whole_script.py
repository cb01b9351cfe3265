# An evaluation script that enters `torch.no_grad()` once and never leaves it
# (`torch.no_grad().__enter__()`): everything after it runs without grad.
import torch


def main(model, loader):
    torch.no_grad().__enter__()
    model.eval()
    scores = []
    for x, y in loader:
        out = model(x)
        scores.append((out.argmax(-1) == y).float().mean().item())
    return scores
