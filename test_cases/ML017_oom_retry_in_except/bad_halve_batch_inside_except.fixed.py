# The retry with half the batch runs while the failed forward's frames (and activations) are still alive.
import torch


def train_step(model, optimizer, x, y):
    loss = torch.nn.functional.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
    return loss.item()


def train(model, optimizer, loader):
    for x, y in loader:
        out_of_memory = False
        try:
            train_step(model, optimizer, x, y)
        except torch.cuda.OutOfMemoryError:
            out_of_memory = True
        if out_of_memory:
            optimizer.zero_grad()
            torch.cuda.empty_cache()
            half = x.shape[0] // 2
            train_step(model, optimizer, x[:half], y[:half])  # expect: ML017
