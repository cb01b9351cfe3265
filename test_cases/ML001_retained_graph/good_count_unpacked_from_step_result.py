# The step returns its losses and an int batch size (or None for a skipped batch); the loop unpacks
# the result it kept in a name and counts samples: the count has no graph, whatever the losses carry.
import torch


def train_step(model, batch, optimizer):
    if batch is None:
        return None
    loss = model(batch).mean()
    loss.backward()
    optimizer.step()
    return {"loss": loss}, len(batch)


def train(model, loader, optimizer, world_size):
    num_samples = 0
    for batch in loader:
        result = train_step(model, batch, optimizer)
        if result is None:
            continue
        losses, step_batch_size = result
        num_samples += step_batch_size * world_size
    return num_samples
