# `self.score` holds what `make_scorer` returns, a layer that the other file makes: each evaluation
# batch's scores are kept on the device with their graphs.
import torch

from heads import make_scorer

device = "cuda" if torch.cuda.is_available() else "cpu"


class Ranker:
    def __init__(self, dim):
        self.score = make_scorer(dim).to(device)

    def evaluate(self, loader):
        scores = []
        for x, _ in loader:
            scores.append(self.score(x.to(device)))  # expect: ML005, ML003
        return torch.cat(scores)
