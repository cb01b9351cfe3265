"""Lightning 2.6: a callback keeps every validation batch's logits on the device (Lightning runs
validation under no_grad; +2 MiB per batch of 512x1024 fp32)."""

import torch
import torch.nn.functional as F
from lightning.pytorch import Callback, LightningModule, Trainer

from memlog import log


class KeepValidationOutputs(Callback):
    def __init__(self):
        self.logits = []

    def on_validation_batch_end(self, trainer, pl_module, outputs, batch, batch_idx, dataloader_idx=0):
        self.logits.append(outputs["logits"])
        log(batch_idx)


class Classifier(LightningModule):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Sequential(torch.nn.Linear(256, 1024), torch.nn.ReLU(), torch.nn.Linear(1024, 1024))

    def validation_step(self, batch, batch_idx):
        x, y = batch
        logits = self.net(x)
        return {"loss": F.cross_entropy(logits, y), "logits": logits}


def main():
    data = torch.utils.data.TensorDataset(torch.randn(512 * 80, 256), torch.randint(0, 1024, (512 * 80,)))
    loader = torch.utils.data.DataLoader(data, batch_size=512)
    trainer = Trainer(accelerator="auto", devices=1, logger=False, enable_checkpointing=False,
                      enable_progress_bar=False, enable_model_summary=False, callbacks=[KeepValidationOutputs()])
    trainer.validate(Classifier(), loader)


if __name__ == "__main__":
    main()
