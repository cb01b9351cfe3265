# A prediction helper rebinds its scores to numpy arrays on every branch of an `if`/`else` before
# returning them: the scores the epoch loop collects carry no history, whatever the network returned.
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
            collected.append(scores)
        return np.vstack(collected)

    def predict_batch(self, features):
        scores, _ = self.network(features.to(self.device).float())  # expect: ML003
        if isinstance(scores, list):
            scores = [s.cpu().detach().numpy() for s in scores]
        else:
            scores = scores.cpu().detach().numpy()
        return scores
