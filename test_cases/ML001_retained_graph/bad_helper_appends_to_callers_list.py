# A helper of this file appends what it is handed to the list its caller passes in: the caller's
# history, made before the loop, keeps every step's loss with its graph.
import torch


def record(history, value, step):
    history.append(value)
    if step % 100 == 0:
        print(step, float(value))


class Tracker:
    def log(self, table, name, value):
        table[name] = value


def train(model, loader, optimizer, criterion):
    history = []
    tracker = Tracker()
    per_step = {}
    for step, (x, y) in enumerate(loader):
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        record(history, loss, step)  # expect: ML001
        tracker.log(per_step, step, loss)  # expect: ML001
    return history, per_step
