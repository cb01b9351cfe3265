# Lightning < 2.0 keeps every `training_step` return for `training_epoch_end`, but detaches the
# "loss" entry first; the other entries are detached here.
import torch
import pytorch_lightning as pl


class Classifier(pl.LightningModule):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self.model(x)
        loss = torch.nn.functional.cross_entropy(logits, y)
        return {"loss": loss, "preds": logits.argmax(-1), "logits": logits.detach()}

    def training_epoch_end(self, outputs):
        print(torch.stack([o["loss"] for o in outputs]).mean().item())
