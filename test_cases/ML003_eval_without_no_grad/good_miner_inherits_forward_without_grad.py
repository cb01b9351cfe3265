# A miner whose `forward` it inherits from a base class of this file computes what it returns under
# `torch.no_grad()` (bookkeeping before and a check after run with grad on, but build no graph): an
# evaluation loop that calls it records nothing.
import torch
from torch import nn


class BaseMiner(nn.Module):
    def forward(self, embeddings, labels):
        self.reset_stats()
        with torch.no_grad():
            mined = self.mine(embeddings, labels)
        self.check(mined)
        return mined

    def reset_stats(self):
        self.count = 0

    def check(self, mined):
        self.count = len(mined)


class AngularMiner(BaseMiner):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)

    def mine(self, embeddings, labels):
        return torch.cdist(self.proj(embeddings), embeddings).argmin(1)


def evaluate(loader):
    miner = AngularMiner(16)
    miner.eval()
    mined = []
    for embeddings, labels in loader:
        mined.append(miner(embeddings, labels).tolist())
    return mined
