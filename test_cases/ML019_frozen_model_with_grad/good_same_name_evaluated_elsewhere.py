# `model.eval()` in evaluate() is about evaluate's own parameter: train()'s `model` is trained.
import torch


def train(model, loader, opt):
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()


def evaluate(model, loader):
    model.eval()
    with torch.no_grad():
        return [model(x).argmax(-1) for x, _ in loader]
