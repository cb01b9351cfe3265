# The spectrogram a torchaudio transform placed on the device computes from each batch, kept in a
# list: a transform module without parameters returns its input's device, and the loop keeps every
# batch's. (Compare good_transform_modules_cached_per_sample_rate.py.)
import torch
from torchaudio.transforms import MelSpectrogram


def evaluate(model, loader, device):
    model.eval()
    mel = MelSpectrogram(16000).to(device)
    outputs = []
    spectrograms = []
    with torch.no_grad():
        for wav in loader:
            spectrograms.append(mel(wav.to(device)))  # expect: ML005
            outputs.append(model(wav.to(device)).cpu())
    return outputs, spectrograms
