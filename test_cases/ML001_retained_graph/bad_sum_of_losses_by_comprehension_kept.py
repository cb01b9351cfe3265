# A comprehension's variable holds what it iterates: the sum of the step's losses, made by a
# generator over them, keeps their graphs every step.
import torch.nn.functional as F


def train(model, loader, optimizer):
    history = []
    for x, y in loader:
        out = model(x)
        losses = [F.cross_entropy(out, y), F.mse_loss(out.softmax(-1), F.one_hot(y, 4).float())]
        optimizer.zero_grad()
        sum(losses).backward()
        optimizer.step()
        history.append(sum(v for v in losses))  # expect: ML001
    return history
