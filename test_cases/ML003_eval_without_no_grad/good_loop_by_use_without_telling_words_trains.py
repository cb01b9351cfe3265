# Look-alike of bad_loop_by_use_without_telling_words.py that stays silent: the same loop, in a file
# with none of those words either, differentiates what the model returns (a training loop).
from torch import nn


def fit(model: nn.Module, loader, optimizer):
    correct = 0
    for x, y in loader:
        out = model(x)
        nn.functional.cross_entropy(out, y).backward()
        optimizer.step()
        optimizer.zero_grad()
        _, pred = out.max(1)
        correct += int((pred == y).sum())
    return correct
