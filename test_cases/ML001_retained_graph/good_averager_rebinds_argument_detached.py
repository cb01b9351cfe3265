# The averager rebinds its argument to a detached sum before keeping it (`v = v.data.sum()`): what it
# keeps has no graph, although the name it keeps is the parameter's.
class Averager:
    def __init__(self):
        self.n_count = 0
        self.sum = 0

    def add(self, v):
        count = v.data.numel()
        v = v.data.sum()
        self.n_count += count
        self.sum += v


def train(model, loader, optimizer, criterion):
    loss_avg = Averager()
    for image, labels in loader:
        cost = criterion(model(image), labels)
        model.zero_grad()
        cost.backward()
        optimizer.step()
        loss_avg.add(cost)
