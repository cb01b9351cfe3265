# The twin of good_decoding_returns_generated.py: each batch is decoded step by step (the steps'
# list is emptied per batch: bounded), but every batch's last decoder output is kept on the device.
import torch


@torch.no_grad()
def decode_all(model, loader, steps):
    model.eval()
    decoded = []
    for batch in loader:
        prev = batch
        outs = []
        for _ in range(steps):
            prev = model(prev)
            outs.append(prev)
        decoded.append(prev.detach().cpu())  # expect: ML005
    return decoded
