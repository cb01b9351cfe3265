# Step returns Lightning does not keep on the device: without a `validation_epoch_end` override
# (Lightning 2.x has none) nothing keeps them; returned on the CPU they cost no device memory; and
# `Trainer.predict` moves every `predict_step` return to the CPU before keeping it.
import pytorch_lightning as pl
import torch
from torch import nn


class Classifier(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(32, 10)

    def validation_step(self, batch, batch_idx):
        x, y = batch
        logits = self.net(x)
        self.log("val_acc", (logits.argmax(-1) == y).float().mean())
        return {"logits": logits, "target": y}

    def predict_step(self, batch, batch_idx):
        return self.net(batch[0])


class EpochEndClassifier(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(32, 10)

    def validation_step(self, batch, batch_idx):
        x, y = batch
        return {"logits": self.net(x).cpu(), "target": y.cpu()}

    def validation_epoch_end(self, outputs):
        logits = torch.cat([o["logits"] for o in outputs])
        self.log("val_mean", logits.mean())
