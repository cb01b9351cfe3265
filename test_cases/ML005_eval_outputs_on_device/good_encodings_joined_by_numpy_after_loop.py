# The encoder's `encode` is a method of its own (its result is not shown), but the list it fills is
# joined by `np.concatenate` after the loop: NumPy converts each element to an array, which a CUDA tensor
# refuses, so the encodings are host values (a sentence encoder returns NumPy arrays) and nothing on the
# device grows.
import numpy as np
import torch


def encode(model, loader, device):
    model = model.to(device)
    model.eval()
    encoded = []
    for batch in loader:
        with torch.no_grad():
            reps = model.encode(batch)
            encoded.append(reps)
    encoded = np.concatenate(encoded)
    return encoded
