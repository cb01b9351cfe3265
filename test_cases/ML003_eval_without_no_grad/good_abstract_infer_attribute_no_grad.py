# The fixed evaluator: the model held in `self.infer` runs under torch.no_grad(), outputs go to the host.
import torch


class Base:
    def forward(self, x):
        raise NotImplementedError


class Evaluator(Base):
    def __init__(self, model):
        self.infer = model

    @torch.no_grad()
    def evaluate(self, val_loader):
        scores = []
        for x, y in val_loader:
            out = self.infer(x)
            scores.append(out.cpu())
        return scores
