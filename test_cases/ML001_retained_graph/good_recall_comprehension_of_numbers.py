# The look-alike keeps a Python number per batch (`.item()`): no graph outlives its batch. The
# full-batch objective below sums every batch's loss and differentiates the sum: the graphs are
# wanted by that backward.
import torch


def collect_scores(model, loader):
    scores = [model(x).max().item() for x, _ in loader]
    return max(scores)


def fit_full_batch(model, loader, optimizer):
    losses = [model(x).mean() for x, _ in loader]
    total = torch.stack(losses).sum()
    optimizer.zero_grad()
    total.backward()
    optimizer.step()
