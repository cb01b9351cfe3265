# Linted as one project with metrics.py: an evaluation regenerates audio without grad, then runs a
# metric on it on the host, averaging its values. The metric that holds no parameter records
# nothing and computes on the host, so its values carry no graph and hold no device memory; the one
# that holds a convolution records its activations every batch. Run on device tensors, the metric
# without parameters computes on the device: its values kept per batch grow device memory.
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
        metrics = {}
        n = 1
        for batch in self.loader:
            with torch.no_grad():
                y_pred = self.model(batch.to(self.device))
            y_pred = y_pred.cpu()
            y = batch.cpu()
            rvm = self.rvm(y_pred, y)
            if len(metrics) == 0:
                metrics = rvm
            else:
                for key in rvm.keys():
                    metrics[key] = (metrics[key] * n + rvm[key]) / (n + 1)
            n += 1
        return metrics

    def evaluate_on_device(self):
        self.model.eval()
        kept = []
        for batch in self.loader:
            x = batch.to(self.device)
            with torch.no_grad():
                y_pred = self.model(x)
            rvm = self.rvm(y_pred, x)
            kept.append(rvm["rvm"])  # expect: ML005
        return kept

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
