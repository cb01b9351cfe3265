# The twin of good_autograd_function_chunk_loop.py: the chunk losses go into a list that lives
# across the batch loop, so every step's chunks stay with their graphs.
import torch


def train(model, optimizer, loader):
    chunk_losses = []
    for x, y in loader:
        for xs, ys in zip(torch.chunk(x, 4), torch.chunk(y, 4)):
            loss = model(xs, ys)
            loss.backward()
            chunk_losses.append(loss.detach())  # expect: ML001
        optimizer.step()
    return chunk_losses
