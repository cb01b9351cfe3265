# The baseline is one tensor on `self`, allocated once (`torch.zeros(len(dataset))`): each batch's
# rewards are copied into its fixed storage by index, nothing is kept per batch and nothing grows.
import torch


class Trainer:
    def __init__(self, model, device):
        self.model, self.device = model, device
        self.moving_avg = None

    @torch.no_grad()
    def init_baseline(self, loader):
        self.model.eval()
        if self.moving_avg is None:
            self.moving_avg = torch.zeros(len(loader.dataset), device=self.device)
        for batch, indices in loader:
            rewards = self.model(batch.to(self.device))
            self.moving_avg[indices] = rewards
