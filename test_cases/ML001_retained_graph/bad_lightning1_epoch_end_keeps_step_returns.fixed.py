# Lightning < 2.0 keeps every `validation_step` return for `validation_epoch_end(outputs)`, as
# returned: a meta-learning step that adapts with grad on returns its loss with the graph.
import torch
import pytorch_lightning as pl


class MetaLearner(pl.LightningModule):
    def __init__(self, features, classes, loss):
        super().__init__()
        self.model = torch.nn.Linear(features, classes)
        self.loss = loss

    @torch.enable_grad()
    def adapt(self, support, labels):
        return self.loss(self.model(support), labels)

    def validation_step(self, batch, batch_idx):
        support, labels = batch
        valid_loss = self.adapt(support, labels)
        self.log("valid_loss", valid_loss.item())
        return valid_loss.detach()  # expect: ML001

    def validation_epoch_end(self, outputs):
        self.log("valid_loss_epoch", torch.stack([o.detach() for o in outputs]).mean())

    def training_step(self, batch, batch_idx):
        support, labels = batch
        logits = self.model(support)
        loss = self.loss(logits, labels)
        return {"loss": loss, "logits": logits.detach().cpu()}  # expect: ML001

    def training_epoch_end(self, outputs):
        print(len(outputs))
