# The twin of good_loss_named_function_returns_floats.py: the helper returns the loss tensor itself.
import torch.nn.functional as F


def compute_loss_stats(logits, target):
    loss = F.cross_entropy(logits, target)
    return loss, float((logits.argmax(-1) == target).float().mean())


def collect(model, optimizer, loader):
    history = []
    for x, y in loader:
        logits = model(x)
        history.append(compute_loss_stats(logits, y).detach())  # expect: ML001
        optimizer.step()
    return history
