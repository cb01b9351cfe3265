# The helper rebinds the network's output from itself (`scores = scores * self.scale`) before returning
# it: the value keeps the graph of the forward, and the loop keeps every batch's graph in `kept`.
import torch


class Scorer:
    def __init__(self, network: torch.nn.Module, scale: float) -> None:
        self.network = network
        self.scale = scale

    def score_all(self, loader):
        kept = []
        for features in loader:
            scores = self.score(features)
            kept.append(scores)  # expect: ML001
        return kept

    def score(self, features):
        scores, _ = self.network(features)
        scores = scores * self.scale
        return scores
