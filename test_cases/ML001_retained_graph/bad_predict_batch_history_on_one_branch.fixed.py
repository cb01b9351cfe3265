# Only the `else` branch turns the scores into numpy: a network that returns a list of heads hands
# back its first head with the graph, so every batch's activations stay alive in `collected`.
import numpy as np
import torch


class Classifier:
    def __init__(self, network: torch.nn.Module, device: str) -> None:
        self.network = network
        self.device = device

    def predict_epoch(self, loader):
        self.network.eval()
        collected = []
        for features, _ in loader:
            scores = self.predict_batch(features)
            collected.append(scores)  # expect: ML001
        return collected

    @torch.no_grad()
    def predict_batch(self, features):
        scores, _ = self.network(features.to(self.device).float())  # expect: ML003
        if isinstance(scores, list):
            scores = scores[0]
        else:
            scores = scores.cpu().detach().numpy()
        return scores
