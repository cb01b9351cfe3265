# A Lightning validation_step returns, for `validation_epoch_end(outputs)` to gather, an entry of the batch that the project's loss filled
# elsewhere with host values (`batch["loss_scalars"]`: detached, on the CPU): nothing here shows what the
# entry holds, and its key names scalars. An entry of a mapping this file builds is followed instead
# (`outputs["scores"]` of `{"scores": feats}` reports: project_scores_named_like_metrics).
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
