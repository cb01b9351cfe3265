# The images go to the model as the loader yields them, but the loop moves the targets of the same
# batch to the device: the loader yields host tensors, so the meta entries it never moves (file
# names, centers read with `.numpy()`) stay on the host, and collecting them grows no device memory.
import numpy as np
import torch


def validate(model, criterion, val_loader, num_samples):
    model.eval()
    all_boxes = np.zeros((num_samples, 2))
    image_path = []
    idx = 0
    with torch.no_grad():
        for input, target, meta in val_loader:
            output = model(input)
            target = target.cuda(non_blocking=True)
            loss = criterion(output, target)
            center = meta["center"].numpy()
            all_boxes[idx:idx + len(center)] = center
            image_path.extend(meta["image"])
            idx += len(center)
    return all_boxes, image_path
