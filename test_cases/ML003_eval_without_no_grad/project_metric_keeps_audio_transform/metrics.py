# Linted as one project with solver.py: a metric module that keeps a torchaudio transform (buffers,
# no parameter) and numbers holds no parameter; one that also makes a convolution does.
import torch
import torchaudio


class RelativeVolumeMel(torch.nn.Module):
    def __init__(self, sample_rate: int = 24000, n_mels: int = 80, min_volume: float = -25) -> None:
        super().__init__()
        self.melspec = torchaudio.transforms.MelSpectrogram(n_mels=n_mels, sample_rate=sample_rate)
        self.min_volume = min_volume

    def forward(self, estimate, reference):
        error = self.melspec(estimate) - self.melspec(reference)
        return {"rvm": error.abs().mean().clamp(min=self.min_volume)}


class LearnedVolumeMel(torch.nn.Module):
    def __init__(self, sample_rate: int = 24000, n_mels: int = 80) -> None:
        super().__init__()
        self.melspec = torchaudio.transforms.MelSpectrogram(n_mels=n_mels, sample_rate=sample_rate)
        self.proj = torch.nn.Conv1d(n_mels, 1, 1)

    def forward(self, estimate, reference):
        return {"rvm": self.proj(self.melspec(estimate) - self.melspec(reference)).mean()}
