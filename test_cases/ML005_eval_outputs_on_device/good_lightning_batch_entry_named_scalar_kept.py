# A Lightning validation_step returns, for `validation_epoch_end(outputs)` to gather, entries of the
# batch that the project's loss and metrics filled elsewhere with host values (LoFTR's
# `batch["loss_scalars"]`: detached, on the CPU): what they hold is not shown here, and their keys
# name losses and errors, one value per batch.
import torch
import torch.nn as nn

import pytorch_lightning as pl


class Matcher(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(32, 8)

    def forward(self, data):
        data.update({"matches": self.fc(data["image"])})


class LitMatcher(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.matcher = Matcher()

    def validation_step(self, batch, batch_idx):
        self.matcher(batch)
        metrics = {"rotation_errs": batch["rotation_errs"]}
        return {**metrics, "loss_scalars": batch["loss_scalars"]}

    def validation_epoch_end(self, outputs):
        self.log("val_loss", torch.stack([o["loss_scalars"]["loss"] for o in outputs]).mean())
