# The backward is retried in the handler, with the failed backward's graph still referenced by the traceback.
import torch
from torch.cuda import OutOfMemoryError


def train(model, optimizer, loader, scaler):
    for x, y in loader:
        loss = torch.nn.functional.mse_loss(model(x), y)
        try:
            scaler.scale(loss).backward()
        except OutOfMemoryError:
            torch.cuda.empty_cache()
            loss.backward()  # expect: ML017
        scaler.step(optimizer)
        scaler.update()
