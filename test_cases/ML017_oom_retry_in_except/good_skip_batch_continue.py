# The handler skips the batch: the next iteration starts after the exception is gone.
import torch


def train(model, optimizer, loader):
    for x, y in loader:
        try:
            loss = torch.nn.functional.cross_entropy(model(x), y)
            loss.backward()
            optimizer.step()
        except torch.cuda.OutOfMemoryError:
            print("skipping batch", x.shape)
            optimizer.zero_grad(set_to_none=True)
            torch.cuda.empty_cache()
            continue
        optimizer.zero_grad()
