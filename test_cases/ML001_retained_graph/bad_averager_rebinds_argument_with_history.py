# The averager rebinds its argument to a sum that keeps the graph (`v = v.sum()`), then keeps it.
class Averager:
    def __init__(self):
        self.n_count = 0
        self.sum = 0

    def add(self, v):
        count = v.numel()
        v = v.sum()
        self.n_count += count
        self.sum += v  # expect: ML001


def train(model, loader, optimizer, criterion):
    loss_avg = Averager()
    for image, labels in loader:
        cost = criterion(model(image), labels)
        model.zero_grad()
        cost.backward()
        optimizer.step()
        loss_avg.add(cost)
