# Look-alikes of the closure idiom that keep nothing with a graph: a closure that returns the
# loss's Python number, and a tuple whose kept element is the number.
import torch


def total_loss(model, x, y):
    loss = torch.nn.functional.mse_loss(model(x), y)
    return loss, loss.item()


def fit(model, x, y, criterion, steps=50):
    optimizer = torch.optim.LBFGS(model.parameters())
    history = []
    costs = [None] * steps

    def closure():
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        return loss.item()

    def line_search():
        return total_loss(model, x, y)

    for i in range(steps):
        history.append(optimizer.step(closure))
        _, costs[i] = optimizer.step(line_search)
    return history, costs
