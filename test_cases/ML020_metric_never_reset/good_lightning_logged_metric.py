# Logged with self.log(name, metric): Lightning computes and resets it at the end of each epoch.
import lightning as L
import torch
import torchmetrics


class Classifier(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Linear(64, 10)
        self.val_auroc = torchmetrics.AUROC(task="multiclass", num_classes=10)

    def validation_step(self, batch, batch_idx):
        x, y = batch
        self.val_auroc.update(self.net(x).softmax(-1), y)
        self.log("val_auroc", self.val_auroc, on_epoch=True)
