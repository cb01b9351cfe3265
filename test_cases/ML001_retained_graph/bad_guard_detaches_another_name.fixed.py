# The tensor check guards another name: the value stored still carries its graph.
import torch


def train(model, loader, optimizer):
    history = []
    for x, y in loader:
        loss = model(x, y)
        loss.backward()
        optimizer.step()
        value = loss
        other = loss
        if isinstance(other, torch.Tensor):
            other = other.detach()
        history.append(value.detach())  # expect: ML001
        kept = loss.detach() if torch.is_tensor(other) else loss
        history.append(kept.detach())  # expect: ML001
    return history
