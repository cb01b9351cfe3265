# The same unpacked result, but the loop sums the loss it carries: every step's graph stays alive.
import torch


def train_step(model, batch, optimizer):
    if batch is None:
        return None
    loss = model(batch).mean()
    loss.backward()
    optimizer.step()
    return loss, len(batch)


def train(model, loader, optimizer, world_size):
    total = 0.0
    for batch in loader:
        result = train_step(model, batch, optimizer)
        if result is None:
            continue
        loss, step_batch_size = result
        total += loss * world_size  # expect: ML001
    return total
