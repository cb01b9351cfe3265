# Linted as one project with stats.py: `batch_stats` returns a mapping one of whose entries carries
# autograd history, so keeping it for every step keeps every step's graph; `batch_floats` returns
# floats, whatever its mapping looks like.
from stats import batch_floats, batch_stats


def train(model, optimizer, loader):
    history = []
    for x, y in loader:
        loss, stats = batch_stats(model, x, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        history.append(stats)  # expect: ML001
    return history


def train_floats(model, optimizer, loader):
    history = []
    for x, y in loader:
        loss, stats = batch_floats(model, x, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        history.append(stats)
    return history
