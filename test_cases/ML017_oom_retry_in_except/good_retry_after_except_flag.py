# PyTorch FAQ's pattern: the except block only sets a flag, the retry runs once the exception is gone.
import torch


def train_step(model, optimizer, x, y):
    loss = torch.nn.functional.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()


def train(model, optimizer, loader):
    for x, y in loader:
        oom = False
        try:
            train_step(model, optimizer, x, y)
        except torch.cuda.OutOfMemoryError:
            oom = True
        if oom:
            optimizer.zero_grad()
            torch.cuda.empty_cache()
            half = x.shape[0] // 2
            train_step(model, optimizer, x[:half], y[:half])
