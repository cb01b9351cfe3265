# A tensor made to require grad that the model does not run on (a temperature applied to its
# outputs), or a tensor the model runs on that `requires_grad_(False)` freezes, asks for no graph of
# the model's run: each loop runs it with grad on, in eval mode, and differentiates nothing, so every
# batch's activations are recorded for nothing.
import torch


def calibrate(model, loader):
    model.eval()
    temperature = torch.ones(1, requires_grad=True)
    total = 0.0
    with torch.no_grad():
        for x, y in loader:
            logits = model(x)  # expect: ML003
            total += float((logits / temperature.detach()).softmax(-1).max())
    return total


@torch.no_grad()
def evaluate(model, loader, frozen):
    model.eval()
    frozen = frozen.requires_grad_(False)
    correct = 0
    for x, y in loader:
        correct += int((model(x, frozen).argmax(-1) == y).sum())  # expect: ML003
    return correct


@torch.no_grad()
def score(model, loader, embeddings):
    model.eval()
    embeddings.requires_grad_(False)
    return [float(model(x, embeddings).max()) for x in loader]  # expect: ML003
