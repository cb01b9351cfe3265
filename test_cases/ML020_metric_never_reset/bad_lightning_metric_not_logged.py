# A LightningModule keeps a PR curve whose value it reads by hand and never resets.
import lightning as L
import torch
from torchmetrics.classification import BinaryPrecisionRecallCurve


class Detector(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Linear(64, 1)
        self.pr_curve = BinaryPrecisionRecallCurve()

    def validation_step(self, batch, batch_idx):
        x, y = batch
        self.pr_curve.update(self.net(x).sigmoid().squeeze(-1), y)  # expect: ML020

    def on_validation_epoch_end(self):
        precision, recall, _ = self.pr_curve.compute()
        print(precision.mean().item(), recall.mean().item())
