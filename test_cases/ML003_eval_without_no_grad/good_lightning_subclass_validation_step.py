# Look-alike of the skorch case: a LightningModule's validation_step, which Lightning runs
# under no_grad/inference_mode (its evaluation loop's _no_grad_context).
import lightning.pytorch as pl
import torch.nn.functional as F


class Classifier(pl.LightningModule):
    def __init__(self, net):
        super().__init__()
        self.net = net

    def validation_step(self, batch, batch_idx):
        x, y = batch
        y_pred = self.net(x)
        loss = F.cross_entropy(y_pred, y)
        self.log("val_loss", loss)
        return loss
