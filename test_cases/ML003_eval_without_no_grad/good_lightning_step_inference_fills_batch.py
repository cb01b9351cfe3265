# The training step's forward is a method named like inference (`_trainval_inference`) that runs the
# matcher and the loss on the batch it is handed, which they fill in place (`data.update(...)`); the
# training step then returns the loss read from that batch, and Lightning backwards what `training_step`
# returns: the method's graph is the training step's, whatever it is called.
import pytorch_lightning as pl
import torch
from torch import nn


class Matcher(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 8)

    def forward(self, data):
        data.update({"feat": self.proj(data["image"])})


class MatchLoss(nn.Module):
    def forward(self, data):
        data.update({"loss": data["feat"].pow(2).mean()})


class PLMatcher(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.matcher = Matcher()
        self.loss = MatchLoss()

    def _trainval_inference(self, batch):
        self.matcher(batch)
        self.loss(batch)

    def training_step(self, batch, batch_idx):
        self._trainval_inference(batch)
        return {"loss": batch["loss"]}

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters())
