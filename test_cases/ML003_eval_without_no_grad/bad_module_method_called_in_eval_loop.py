# A method of a module class that runs the module (`infer`), called on an object of the class: the
# call runs the model under the caller's grad mode, here in a loop after `model.eval()` that never
# differentiates. Lightning's `predict_step`, which `Tagger` leaves to Lightning, runs its forward too.
import pytorch_lightning as pl
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer = nn.Linear(16, 4)

    def forward(self, x):
        return self.layer(x)

    def infer(self, x):
        return self(x).argmax(-1)


class Tagger(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.layer = nn.Linear(16, 4)

    def forward(self, x):
        return self.layer(x)


def accuracy(loader):
    model = Net()
    model.eval()
    correct = 0
    for x, y in loader:
        correct += (model.infer(x) == y).sum().item()  # expect: ML003
    return correct


def tag(loader, tagger: Tagger):
    tagger.eval()
    tags = []
    for i, x in enumerate(loader):
        tags.append(tagger.predict_step(x, i).argmax(-1).tolist())  # expect: ML003
    return tags
