# The twin of good_loader_names_next_to_moved_batch.py: the loader's images go to the model as they
# come, so the loader yields device tensors, and the labels kept from each batch are there too.
import torch


def collect(model, val_loader):
    model.eval()
    labels, outputs = [], []
    with torch.no_grad():
        for images, targets in val_loader:
            outputs.append(model(images).cpu())
            labels.append(targets.detach().cpu())  # expect: ML005
    return torch.cat(outputs), torch.cat(labels)
