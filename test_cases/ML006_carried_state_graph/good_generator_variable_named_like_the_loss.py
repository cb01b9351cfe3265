# A detector's loss is the sum of its loss dict, written with a generator whose variable is named `loss`
# too: that `loss` is the generator's own, not the previous step's, so nothing is carried between steps.
import torch


def train(model, data_loader, optimizer, device):
    model.train()
    for images, targets in data_loader:
        images = images.to(device)
        targets = targets.to(device)
        loss_dict = model(images, targets=targets)
        loss = sum(loss for loss in loss_dict.values())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
