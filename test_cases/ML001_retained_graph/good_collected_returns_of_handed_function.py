# Look-alikes of a function that collects what the function it is handed returns for every batch,
# silent: the handed method runs no model, the handed function runs under `@torch.no_grad()`,
# and the collecting function is itself run under `torch.no_grad()`.
import torch


def map_batches(loader, fun):
    results = []
    for batch in loader:
        results.append(fun(batch))
    return results


def map_batches_quietly(loader, fun):
    results = []
    for batch in loader:
        results.append(fun(batch))
    return results


class Scorer:
    def __init__(self):
        self.net = torch.nn.Linear(16, 1)

    def score_batch(self, batch):
        return batch.sum(dim=1)

    def score(self, loader):
        return map_batches(loader, fun=self.score_batch)

    def raw_batch(self, batch):
        return self.net(batch)

    def raw(self, loader):
        with torch.no_grad():
            return map_batches_quietly(loader, self.raw_batch)


encoder = torch.nn.Linear(16, 8)


@torch.no_grad()
def embed_batch(batch):
    return encoder(batch)


def embed(loader):
    return map_batches(loader, embed_batch)
