# timm's `AverageMeter.update(val)` keeps `val` on the meter (`self.val = val`, `self.sum += val`):
# handed the loss, it keeps the loss's graph until the next update.
from timm.utils import AverageMeter


def train(model, loader, optimizer, criterion):
    losses = AverageMeter()
    for x, y in loader:
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.update(loss.detach(), x.size(0))  # expect: ML001
    return losses.avg
