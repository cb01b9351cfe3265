# Each step writes the batch's sample indices into a window of a memory bank. Where the bank is a
# tensor the module registered as a buffer (`register_buffer`), the window assignment copies the
# indices into storage allocated once: nothing grows. Where the bank is a dict filled by step, every
# step's indices stay on the device.
import torch

from base import BaseMethod


class Clusterer(BaseMethod):
    def on_train_start(self):
        size = len(self.trainer.train_dataloader) * self.batch_size
        self.register_buffer("memory_index", torch.zeros(size).long().to(self.device))

    def update_memory(self, idxs, batch_idx):
        start, end = batch_idx * self.batch_size, (batch_idx + 1) * self.batch_size
        self.memory_index[start:end] = idxs

    def training_step(self, batch, batch_idx):
        idxs = batch[0]
        loss = super().training_step(batch, batch_idx)["loss"]
        self.update_memory(idxs, batch_idx)
        return loss


class IndexLogger(BaseMethod):
    def on_train_start(self):
        self.seen = {}

    def remember(self, idxs, batch_idx):
        self.seen[batch_idx] = idxs

    def training_step(self, batch, batch_idx):
        idxs = batch[0]
        loss = super().training_step(batch, batch_idx)["loss"]
        self.remember(idxs, batch_idx)  # expect: ML005
        return loss
