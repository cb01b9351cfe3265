# A meter of this file whose `update` takes `.item()`: feeding it the loss keeps no graph. Its
# summary says `update` keeps nothing with history (the name "meter" decides nothing).
class AverageMeter:
    def __init__(self):
        self.total, self.count = 0.0, 0

    def update(self, value, n=1):
        self.total += value.item() * n
        self.count += n


def train(model, criterion, optimizer, loader):
    meter = AverageMeter()
    for x, y in loader:
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        meter.update(loss, len(x))
    return meter.total / meter.count
