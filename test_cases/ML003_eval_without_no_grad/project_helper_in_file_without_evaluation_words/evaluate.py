# Linted as one project with inference.py: `forward_one` runs the model it is handed with grad on.
import torch

from inference import forward_one, forward_one_no_grad


def evaluate(model, loader):
    model.eval()
    outputs = [forward_one(model, b).cpu() for b in loader]
    return torch.cat(outputs)


def evaluate_without_grad(model, loader):
    model.eval()
    outputs = [forward_one_no_grad(model, b) for b in loader]
    return torch.cat(outputs)
