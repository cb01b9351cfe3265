# Linted as one project with miners.py and check_miners.py: two base classes of modules, alike but
# for one block. `BaseMiner.forward` computes what it returns under `torch.no_grad()` (as
# pytorch-metric-learning's miners: bookkeeping before and a check after, with grad on, build no
# graph); `BaseScorer.forward` computes its subclasses' `score` with grad on.
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


class BaseScorer(nn.Module):
    def forward(self, embeddings, labels):
        self.reset_stats()
        scores = self.score(embeddings, labels)
        self.check(scores)
        return scores

    def reset_stats(self):
        self.count = 0

    def check(self, scores):
        self.count = len(scores)
