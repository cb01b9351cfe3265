# timm's `AverageMeter` handed `loss.item()`: a Python number, no graph.
from timm.utils import AverageMeter


def train(model, loader, optimizer, criterion):
    losses = AverageMeter()
    for x, y in loader:
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.update(loss.item(), x.size(0))
    return losses.avg
