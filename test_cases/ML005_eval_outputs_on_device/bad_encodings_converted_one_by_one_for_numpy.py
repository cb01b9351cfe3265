# The twin of good_encodings_joined_by_numpy_after_loop.py: NumPy joins the encodings only after each is
# converted (`e.cpu().numpy()`, in a comprehension or into a new list): nothing says they are host values
# while the loop collects them.
import numpy as np
import torch


def encode_each(model, loader, device):
    model = model.to(device)
    model.eval()
    encoded = []
    for batch in loader:
        with torch.no_grad():
            encoded.append(model.encode(batch))  # expect: ML005
    return np.concatenate([e.cpu().numpy() for e in encoded])


def encode_rebound(model, loader, device):
    model = model.to(device)
    model.eval()
    encoded = []
    for batch in loader:
        with torch.no_grad():
            encoded.append(model.encode(batch))  # expect: ML005
    encoded = [e.cpu().numpy() for e in encoded]
    return np.concatenate(encoded)
