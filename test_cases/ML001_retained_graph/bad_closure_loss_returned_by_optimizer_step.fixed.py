# `optimizer.step(closure)` returns what the closure returns: here a loss with its graph, which
# the history list keeps every step (the closure backwards it, so the graph skeleton leaks).
import torch


def fit(model, x, y, criterion, steps=50):
    optimizer = torch.optim.LBFGS(model.parameters())
    history = []

    def closure():
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        return loss

    for _ in range(steps):
        history.append(optimizer.step(closure).detach())  # expect: ML001
    return history
