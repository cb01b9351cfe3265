# The twin of good_meta_next_to_target_moved_to_device.py: what it collects is the target the loop
# itself moves to the device, so each batch's targets stay there.
import torch


def validate(model, criterion, val_loader):
    model.eval()
    targets = []
    with torch.no_grad():
        for input, target, meta in val_loader:
            output = model(input)
            target = target.cuda(non_blocking=True)
            loss = criterion(output, target)
            targets.append(target.detach().cpu())  # expect: ML005
    return torch.cat(targets)
