# The step's outputs kept as they are where `isinstance(value, torch.Tensor)` says they are
# tensors: each keeps the graph of the step it came from.
import torch


def train(model, loader, optimizer):
    history = []
    for x, y in loader:
        outputs = model(x, y)
        optimizer.zero_grad()
        outputs["loss"].backward()
        optimizer.step()
        for key, value in outputs.items():
            if isinstance(value, torch.Tensor):
                history.append(value)  # expect: ML001
            else:
                history.append(float(value))
    return history
