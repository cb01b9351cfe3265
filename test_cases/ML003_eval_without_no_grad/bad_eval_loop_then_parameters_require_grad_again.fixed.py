# The evaluation hands the model back to training with every parameter requiring grad again, after
# its loop: making the parameters require grad asks for no graph of the evaluation's forward, which
# records one for every batch all the same.
import torch
from torch import nn

device = "cuda" if torch.cuda.is_available() else "cpu"


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    correct = 0
    for x, y in loader:
        out = model(x.to(device))  # expect: ML003
        correct += (out.argmax(1) == y.to(device)).sum().item()
    for p in model.parameters():
        p.requires_grad = True
    model.train()
    return correct


def main(loader):
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4)).to(device)
    print(evaluate(model, loader))


@torch.no_grad()
def validate(model, loader):
    model.requires_grad_(True)
    model.eval()
    losses = []
    for x, y in loader:
        losses.append(nn.functional.cross_entropy(model(x.to(device)), y.to(device)).item())  # expect: ML003
    return sum(losses) / len(losses)
