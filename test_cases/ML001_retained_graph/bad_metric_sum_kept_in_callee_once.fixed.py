# A metric class of this file sums what it is handed into `self.sum`: the training loss carries
# its graph into the running sum every step. The leak is the callee's store, reported there once
# for both loops that hand it a tensor, and fixed there (`val.cpu()` shows `val` is a tensor).
import torch
import torch.nn.functional as F


class Metric:
    def __init__(self, name):
        self.name = name
        self.sum = torch.tensor(0.0)
        self.n = torch.tensor(0.0)

    def update(self, val):
        self.sum += val.detach().cpu()  # expect: ML001
        self.n += 1

    @property
    def avg(self):
        return self.sum / self.n


def train(model, loader, optimizer):
    train_loss = Metric("train_loss")
    for x, y in loader:
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        train_loss.update(loss)
    return train_loss.avg


def train_more(model, loader, optimizer):
    extra_loss = Metric("extra_loss")
    for x, y in loader:
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        extra_loss.update(loss)
    return extra_loss.avg
