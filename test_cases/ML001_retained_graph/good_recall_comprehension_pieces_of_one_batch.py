# Look-alikes of a comprehension over the data set: inside the batch loop, a comprehension runs
# the model on the pieces of one batch (one per device) and is rebound every step; a batch's
# fields unpacked into names; a tuple of strings named `data` run through a text pipeline.
import torch


@torch.no_grad()
def evaluate(net, val_loader, metric, device):
    outputs = []
    for batches in val_loader:
        outputs = [net(x) for x in batches]
        metric.update(outputs)


def one_step(model, data, device):
    obs, truth = [j.to(device) for j in data]
    return model(obs), truth


def tokenize(model, data):
    data = tuple(model(text) for text in data)
    return data
