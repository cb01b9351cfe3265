# The look-alike: the trainer derives from the evaluator, so `self.evaluate()` in its `fit` is the
# evaluator's method, and that call (the only one) runs under `torch.no_grad()`.
import torch


class Evaluator:
    def __init__(self, model, loader):
        self.model = model
        self.loader = loader

    def evaluate(self):
        self.model.eval()
        scores = []
        for x, y in self.loader:
            out = self.model(x)
            scores.append((out.argmax(-1) == y).float().mean().item())
        return sum(scores) / len(scores)


class Trainer(Evaluator):
    def fit(self):
        with torch.no_grad():
            print(self.evaluate())
