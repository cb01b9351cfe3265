# `acc = torch.cuda` is another name for the module: acc.empty_cache() is torch.cuda.empty_cache().
import torch

acc = torch.cuda


def train(model, loader, optimizer, criterion):
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        acc.empty_cache()  # expect: ML004
