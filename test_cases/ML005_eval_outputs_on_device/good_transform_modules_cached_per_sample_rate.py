# A resampler per sample rate, made once and kept in a dict for the rates that come again: what the
# dict keeps is a torchaudio transform module (placed on the device with `.to(device)`, which returns
# the module), one per distinct rate, not a tensor of any batch. (Compare
# bad_transform_outputs_collected.py.)
import torch
from torchaudio.transforms import Resample


def evaluate(model, loader, device):
    model.eval()
    resamplers = {}
    outputs = []
    with torch.no_grad():
        for wav, rate in loader:
            if rate not in resamplers:
                resamplers[rate] = Resample(rate, 16000).to(device)
            audio = resamplers[rate](wav.to(device))
            outputs.append(model(audio).cpu())
    return outputs
