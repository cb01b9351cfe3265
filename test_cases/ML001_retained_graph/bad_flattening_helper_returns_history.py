# A helper that flattens the tensors it is handed into one returns their history: the training loop
# keeps every step's flattened output, and with it that step's graph.
import torch


def flatten(values):
    flat = []
    for v in values:
        flat.append(v.view(-1))
    return torch.cat(flat)


def train(model, loader, optimizer):
    history = []
    for x, y in loader:
        out = model(x)
        loss = (out - y).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        history.append(flatten([out]))  # expect: ML001
    return history
