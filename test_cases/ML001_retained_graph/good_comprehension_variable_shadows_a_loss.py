# The comprehension's `v` is its own: it runs over numbers and over the losses' `.item()`s, whatever
# the function's `v` (the last loss, with its graph) holds.
import torch.nn.functional as F


def train(model, loader, optimizer):
    history = []
    for x, y in loader:
        out = model(x)
        v = F.cross_entropy(out, y)
        optimizer.zero_grad()
        v.backward()
        optimizer.step()
        history.append([v * 0.5 for v in (1.0, 2.0)])
        history.append(sum(v for v in [v.item()]))
    return history
