# Linted as one project with base.py: the overrides its base classes call.
import torch

from base import BaseRunner, QuietBase


class ClsRunner(BaseRunner):
    def forward_batch(self, batch):
        x, y = batch
        return (self.model(x).argmax(-1) == y).float()


class QuietRunner(QuietBase):
    @torch.no_grad()
    def forward_batch(self, batch):
        x, y = batch
        return (self.model(x).argmax(-1) == y).float()
