# The twin of good_lightning_step_inference_fills_batch.py: the training step hands the batch to a
# method named like inference that fills it with a frozen teacher's outputs, but what the step returns
# for Lightning to backward reads the batch only before that call: the teacher's graph is recorded for
# nothing.
import pytorch_lightning as pl
import torch
from torch import nn


class Teacher(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 8)

    def forward(self, data):
        data.update({"soft": self.proj(data["image"])})


class PLStudent(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.teacher = Teacher()
        self.student = nn.Linear(8, 8)

    @torch.no_grad()
    def _teacher_inference(self, batch):
        self.teacher(batch)  # expect: ML003

    def training_step(self, batch, batch_idx):
        image = batch["image"]
        self._teacher_inference(batch)
        loss = self.student(image).pow(2).mean()
        return {"loss": loss}

    def configure_optimizers(self):
        return torch.optim.Adam(self.student.parameters())
