# The twin of good_total_through_detaching_helper.py: the helper adds the loss itself, so the total
# returned (and fed back next step) carries every step's graph.
import torch


def add_to_total(total, loss):
    if total is None:
        total = torch.zeros_like(loss)
    return total + loss


def train(model, optimizer, loader):
    total_loss = None
    for x, y in loader:
        loss = model(x, y)
        total_loss = add_to_total((total_loss.detach() if total_loss is not None else None), loss)  # expect: ML006
        loss.backward()
        optimizer.step()
    return total_loss
