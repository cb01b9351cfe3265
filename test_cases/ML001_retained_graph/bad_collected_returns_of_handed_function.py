# `map_batches` calls the function it is handed on every batch and collects what it returns. Every
# call in this file hands it a function that runs a model with grad on (a bound method, a function):
# each batch's output is kept in `results` with its autograd graph until the list is dropped. A training
# step handed to `run_epoch` backwards its loss itself: the kept losses hold their graph skeletons.
import torch


def map_batches(loader, fun):
    results = []
    for batch in loader:
        results.append(fun(batch))  # expect: ML001
    return results


class Scorer:
    def __init__(self):
        self.net = torch.nn.Linear(16, 1)

    def score_batch(self, batch):
        return self.net(batch).sigmoid()

    def score(self, loader):
        return map_batches(loader, fun=self.score_batch)


encoder = torch.nn.Linear(16, 8)


def embed_batch(batch):
    return encoder(batch)


def embed(loader):
    return map_batches(loader, embed_batch)


def run_epoch(loader, step_fn):
    losses = []
    for batch in loader:
        losses.append(step_fn(batch))  # expect: ML001
    return losses


class Trainer:
    def __init__(self):
        self.net = torch.nn.Linear(16, 1)
        self.opt = torch.optim.SGD(self.net.parameters(), lr=0.1)

    def train_step(self, batch):
        loss = self.net(batch).mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss

    def fit(self, loader):
        return run_epoch(loader, self.train_step)
