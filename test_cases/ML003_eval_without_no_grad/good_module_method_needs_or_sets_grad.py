# Look-alikes of bad_module_method_called_in_eval_loop.py that stay silent: a method that runs the
# module under `@torch.no_grad()` (its own `predict_step` too), one whose output the loop differentiates
# (a saliency map), and `Trainer.predict`, whose predict loop runs every `predict_step` without grad.
import pytorch_lightning as pl
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer = nn.Linear(16, 4)

    def forward(self, x):
        return self.layer(x)

    @torch.no_grad()
    def infer(self, x):
        return self(x).argmax(-1)

    def score(self, x):
        return self(x).max(-1).values


class Tagger(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.layer = nn.Linear(16, 4)

    def forward(self, x):
        return self.layer(x)

    @torch.no_grad()
    def predict_step(self, batch, batch_idx):
        return self(batch)


def accuracy(loader):
    model = Net()
    model.eval()
    correct = 0
    for x, y in loader:
        correct += (model.infer(x) == y).sum().item()
    return correct


def saliency(loader):
    model = Net()
    model.eval()
    maps = []
    for x in loader:
        x.requires_grad_()
        model.score(x).sum().backward()
        maps.append(x.grad.abs().cpu())
    return maps


def tag(loader, tagger: Tagger):
    tagger.eval()
    tags = []
    for i, x in enumerate(loader):
        tags.append(tagger.predict_step(x, i).argmax(-1).tolist())
    return tags


def tag_all(loader):
    return pl.Trainer().predict(Tagger(), loader)
