"""A Lightning module (a 6-layer transformer encoder classifier, seq 256, batch 64) trained by
`lightning.Trainer`: a command-form program (`memlint estimate -- python lightning_module.py [--bf16]`)."""

import os
import sys

import pytorch_lightning as pl
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

SEQ, BATCH, DIM, STEPS = 256, 64, 512, int(os.environ.get("BENCH_STEPS", "3"))


class Classifier(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(20000, DIM)
        layer = nn.TransformerEncoderLayer(DIM, 8, 4 * DIM, batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, 6, enable_nested_tensor=False)
        self.head = nn.Linear(DIM, 10)

    def training_step(self, batch, _):
        x, y = batch
        loss = F.cross_entropy(self.head(self.encoder(self.emb(x)).mean(1)), y)
        self.log("loss", loss)
        return loss

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=1e-4)


def main():
    data = TensorDataset(torch.randint(0, 20000, (BATCH * 8, SEQ)), torch.randint(0, 10, (BATCH * 8,)))
    trainer = pl.Trainer(max_steps=STEPS, accelerator="auto", devices=1, logger=False, enable_checkpointing=False,
                         enable_progress_bar=False, enable_model_summary=False,
                         precision="bf16-mixed" if "--bf16" in sys.argv else "32-true")
    trainer.fit(Classifier(), DataLoader(data, batch_size=BATCH))


if __name__ == "__main__":
    main()
