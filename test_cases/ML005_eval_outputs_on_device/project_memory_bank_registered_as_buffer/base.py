# Linted as one project with clustering.py: the base method of the framework, whose training step
# the subclasses extend.
import lightning.pytorch as pl


class BaseMethod(pl.LightningModule):
    def training_step(self, batch, batch_idx):
        return {"loss": self.backbone(batch[1]).mean()}
