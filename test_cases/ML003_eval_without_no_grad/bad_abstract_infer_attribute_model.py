# The model is reached through an attribute that holds a module handed in (`self.infer = model`);
# the base class's abstract `forward` only raises NotImplementedError and must not hide that the
# evaluation runs the model with grad on. (`main` hands it a module: that it is one is no guess
# from its name.)
import torch


class Base:
    def forward(self, x):
        raise NotImplementedError


class Evaluator(Base):
    def __init__(self, model):
        self.infer = model

    def evaluate(self, val_loader):
        scores = []
        for x, y in val_loader:
            out = self.infer(x)  # expect: ML003
            scores.append(out)  # expect: ML001
        return scores


def main(val_loader):
    evaluator = Evaluator(torch.nn.Linear(8, 2))
    return evaluator.evaluate(val_loader)
