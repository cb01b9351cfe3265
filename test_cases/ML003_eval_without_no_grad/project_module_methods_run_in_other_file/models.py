# Linted as one project with score.py. `Classifier` leaves `predict_step` to Lightning, whose default
# runs the module's forward (`return self(batch)`), and its `embed` runs the backbone: called by
# score.py, each runs the model under score.py's grad mode. `Frozen.predict_step` is decorated
# `@torch.no_grad()`: it records no graph for any caller.
import pytorch_lightning as pl
import torch
from torch import nn


class Classifier(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Linear(16, 4)

    def forward(self, x):
        return self.backbone(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        return nn.functional.cross_entropy(self(x), y)

    def embed(self, x):
        return self.backbone(x).softmax(-1)


class Frozen(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Linear(16, 4)

    def forward(self, x):
        return self.backbone(x)

    @torch.no_grad()
    def predict_step(self, batch, batch_idx):
        return self(batch)
