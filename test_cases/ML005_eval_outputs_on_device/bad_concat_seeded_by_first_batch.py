# The running concatenation of every batch's logits, seeded by the first batch: each batch's
# logits stay on the device until the loop ends.
import torch


def predict(model, loader, device):
    model.eval()
    all_logits = None
    with torch.no_grad():
        for x, _ in loader:
            logits = model(x.to(device))
            all_logits = logits if all_logits is None else torch.cat([all_logits, logits])  # expect: ML005
    return all_logits
