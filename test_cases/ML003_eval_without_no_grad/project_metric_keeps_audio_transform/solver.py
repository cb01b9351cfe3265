# Linted as one project with metrics.py: an evaluation regenerates audio without grad, then runs a
# metric on it on the host, keeping nothing. The metric that holds no parameter records nothing;
# the one that holds a convolution records its activations every batch.
import torch

from metrics import LearnedVolumeMel, RelativeVolumeMel


class DiffusionSolver:
    def __init__(self, model, loader, device):
        self.model = model
        self.loader = loader
        self.device = device
        self.rvm = RelativeVolumeMel()
        self.learned_rvm = LearnedVolumeMel()

    def evaluate(self):
        self.model.eval()
        scores = []
        for batch in self.loader:
            with torch.no_grad():
                y_pred = self.model(batch.to(self.device))
            y_pred = y_pred.cpu()
            y = batch.cpu()
            rvm = self.rvm(y_pred, y)
            scores.append(rvm["rvm"].item())
        return scores

    def evaluate_learned(self):
        self.model.eval()
        scores = []
        for batch in self.loader:
            with torch.no_grad():
                y_pred = self.model(batch.to(self.device))
            y_pred = y_pred.cpu()
            y = batch.cpu()
            rvm = self.learned_rvm(y_pred, y)  # expect: ML003
            scores.append(rvm["rvm"].item())
        return scores
