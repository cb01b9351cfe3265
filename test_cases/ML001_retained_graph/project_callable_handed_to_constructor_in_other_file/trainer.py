# Linted as one project with statistics.py: `tensor_s` is handed `compute_s_update`, whose einsum of
# the model's output carries its graph; `norms` is handed `compute_norm`, which returns a number,
# `features` a method run under `no_grad`, and `record` the training step itself.
import torch

from statistics import ScalarStatistic, StepRecord, TensorStatistic


class GrowingTrainer:
    def __init__(self, model, optimizer):
        self.model = model
        self.optimizer = optimizer
        self.tensor_s = TensorStatistic((8, 8), update_function=self.compute_s_update, name="S")
        self.norms = ScalarStatistic(self.compute_norm)
        self.features = TensorStatistic((8, 8), self.compute_features)
        self.record = StepRecord(self.train_step)

    def compute_s_update(self, x):
        out = self.model(x)
        return torch.einsum("ij,ik->jk", out, out), x.shape[0]

    def compute_norm(self, x):
        return self.model(x).norm().item(), x.shape[0]  # preview: ML003

    @torch.no_grad()
    def compute_features(self, x):
        out = self.model(x)
        return torch.einsum("ij,ik->jk", out, out), x.shape[0]

    def train_step(self, x):
        loss = self.model(x).pow(2).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return [loss]

    def fit(self, loader):
        for x in loader:
            self.record.update(x)
            self.tensor_s.update(x=x)
            self.norms.update(x=x)
            self.features.update(x=x)
