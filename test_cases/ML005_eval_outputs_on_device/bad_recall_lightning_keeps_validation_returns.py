# Lightning < 2.0 keeps every `validation_step` return for `validation_epoch_end` (which this module
# overrides), as returned: the logits and the targets of every validation batch stay on the device
# until the epoch ends.
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
        return {"logits": logits, "target": y}  # expect: ML005

    def validation_epoch_end(self, outputs):
        logits = torch.cat([o["logits"] for o in outputs])
        target = torch.cat([o["target"] for o in outputs])
        self.log("val_acc", (logits.argmax(-1) == target).float().mean())
