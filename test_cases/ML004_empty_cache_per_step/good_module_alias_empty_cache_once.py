# The alias used once, after training.
import torch

acc = torch.cuda


def train(model, loader, optimizer, criterion):
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
    acc.empty_cache()
