# Resuming is switched by an argument: when it is on, the checkpoint (saved from the GPU during
# training) is loaded without `map_location` and lands on the device it was saved from.
import torch


def train(model, optimizer, loader, load_epoch):
    if load_epoch > 0:
        model.load_state_dict(torch.load("checkpoints/model.iter-" + str(load_epoch), map_location="cpu"))  # expect: ML011
    for batch in loader:
        optimizer.zero_grad()
        model(batch.cuda()).mean().backward()
        optimizer.step()
    torch.save(model.state_dict(), "checkpoints/model.iter-" + str(load_epoch + 1))
