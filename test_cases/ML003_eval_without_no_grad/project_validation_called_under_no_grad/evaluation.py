# Linted as one project with train.py. `validation` is called, here and in train.py, only under
# torch.no_grad() (through `benchmark_all` too): no graph is built, although an option of the same
# name (`opt.benchmark_all`) is read. `evaluate` is called with grad on by `report`, and `evaluate_split`
# by train.py (here only under torch.no_grad()), each handed a model (`report` and train.py put it in
# eval mode): both build graphs.
import torch
import torch.nn.functional as F


def validation(model, loader):
    losses = []
    for x, y in loader:
        out = model(x)
        losses.append(F.cross_entropy(out, y))
    return torch.stack(losses).mean().item()


def benchmark_all(model, loaders, opt):
    return [validation(model, loader) for loader in loaders]


def test(model, loaders, loader, opt):
    model.eval()
    with torch.no_grad():
        if opt.benchmark_all:
            benchmark_all(model, loaders, opt)
        else:
            validation(model, loader)
        print(evaluate_split(model, loader))


def evaluate_split(model, loader):
    correct = 0
    for x, y in loader:
        out = model(x)  # expect: ML003
        correct += (out.argmax(-1) == y).sum().item()
    return correct


def evaluate(model, loader):
    correct = 0
    for x, y in loader:
        out = model(x)  # expect: ML003
        correct += (out.argmax(-1) == y).sum().item()
    return correct


def report(model, loader, opt):
    model.eval()
    if opt.evaluate:
        print(evaluate(model, loader))
