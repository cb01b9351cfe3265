# Lightning 2 keeps no step return (the `*_epoch_end(outputs)` hooks are gone): a validation step
# that adapts with grad on and returns its loss keeps nothing past the batch.
import torch
import lightning.pytorch as pl


class MetaLearner(pl.LightningModule):
    def __init__(self, model, loss):
        super().__init__()
        self.model = model
        self.loss = loss

    @torch.enable_grad()
    def adapt(self, support, labels):
        return self.loss(self.model(support), labels)

    def validation_step(self, batch, batch_idx):
        support, labels = batch
        valid_loss = self.adapt(support, labels)
        self.log("valid_loss", valid_loss.item())
        return valid_loss

    def on_validation_epoch_end(self):
        self.log("epoch", float(self.current_epoch))
