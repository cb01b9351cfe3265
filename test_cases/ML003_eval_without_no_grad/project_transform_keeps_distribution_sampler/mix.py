# Linted as one project with test_mix.py: a transform module that keeps a torch.distributions
# sampler (never a module) and numbers holds no parameter; one that also makes a layer does.
import torch


class CutMix(torch.nn.Module):
    def __init__(self, alpha: float = 1.0, num_classes: int = 400) -> None:
        super().__init__()
        self.beta_sampler = torch.distributions.beta.Beta(alpha, alpha)
        self.num_classes = num_classes

    def forward(self, videos, labels):
        lam = self.beta_sampler.sample()
        return videos * lam + videos.flip(0) * (1 - lam), labels


class ScaledCutMix(torch.nn.Module):
    def __init__(self, alpha: float = 1.0, size: int = 8) -> None:
        super().__init__()
        self.beta_sampler = torch.distributions.beta.Beta(alpha, alpha)
        self.scale = torch.nn.Linear(size, size)

    def forward(self, videos, labels):
        lam = self.beta_sampler.sample()
        return self.scale(videos * lam + videos.flip(0) * (1 - lam)), labels
