# The models live in a dict (`self.model["generator"]`): a module taken from a container of
# modules is called like any module, here with grad on in an evaluation step
# (ParallelWaveGAN's `_eval_step`).
import torch
class Trainer:
    def __init__(self, model, device):
        self.model, self.device = model, device

    @torch.no_grad()
    def _eval_step(self, batch):
        z, c, y = [b.to(self.device) for b in batch]
        y_ = self.model["generator"](z, c)  # expect: ML003
        return (y_ - y).abs().mean().item()

    def _eval_epoch(self, dev_loader):
        return sum(self._eval_step(batch) for batch in dev_loader)
