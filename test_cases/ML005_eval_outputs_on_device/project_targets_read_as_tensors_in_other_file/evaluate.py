# Linted as one project with metrics.py: the batch's labels, moved to the device with the batch, are
# handed to a metric that concatenates them as tensors: every batch's labels stay on the device.
import torch

from metrics import accuracy


@torch.no_grad()
def evaluate(model, dataloader):
    preds, labels = [], []
    model.eval()
    for inputs in dataloader:
        inputs = inputs.cuda()
        preds.append(model(inputs["x"]).argmax(-1).cpu())
        labels.append(inputs["label"])  # expect: ML005
    return accuracy(preds, labels)
