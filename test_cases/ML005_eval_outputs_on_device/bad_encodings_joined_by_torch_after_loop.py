# The twin of good_encodings_joined_by_numpy_after_loop.py: the encodings are joined by `torch.cat`, on
# the device: nothing says they are host values while the loop collects them (`torch.cat` shows them tensors).
import torch


def encode(model, loader, device):
    model = model.to(device)
    model.eval()
    encoded = []
    for batch in loader:
        with torch.no_grad():
            reps = model.encode(batch)
            encoded.append(reps)  # expect: ML005
    return torch.cat(encoded).cpu().numpy()
