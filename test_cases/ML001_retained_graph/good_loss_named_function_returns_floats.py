# A function of this file named like a loss returns Python floats: its summary, not its name,
# decides, so the totals kept per step carry no graph.
import torch.nn.functional as F


def compute_loss_stats(logits, target):
    loss = F.cross_entropy(logits, target)
    return loss.item(), float((logits.argmax(-1) == target).float().mean())


def train(model, optimizer, loader):
    history = []
    for x, y in loader:
        logits = model(x)
        F.cross_entropy(logits, y).backward()
        optimizer.step()
        history.append(compute_loss_stats(logits, y))
    return history
