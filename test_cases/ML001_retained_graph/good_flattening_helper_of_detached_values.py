# The same helper flattens detached copies: what it returns has no history, and the list the
# training loop fills keeps numbers of no graph.
import torch


def flatten(values):
    flat = []
    for v in values:
        flat.append(v.detach().view(-1))
    return torch.cat(flat)


def train(model, loader, optimizer):
    history = []
    for x, y in loader:
        out = model(x)
        loss = (out - y).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        history.append(flatten([out]))
    return history
