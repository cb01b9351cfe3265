# The running total goes through a local helper that adds `loss.detach()`: the helper's summary
# passes the total through and cuts the loss's history, so nothing links one step to the next
# (DeepSpeed's PipelineEngine._exec_forward_pass).
import torch


def add_to_total(total, loss):
    if total is None:
        total = torch.zeros_like(loss)
    total += loss.detach()
    return total


def train(model, optimizer, loader):
    total_loss = None
    for x, y in loader:
        loss = model(x, y)
        total_loss = add_to_total(total_loss, loss)
        loss.backward()
        optimizer.step()
    return total_loss
