# A helper of this file runs the model; it is called from an evaluation loop with grad on, so the
# helper runs as evaluation code: its summary says it calls a model with grad.
import torch


def score_batch(model, x, y):
    return (model(x).argmax(-1) == y).float().sum()


def evaluate(model, val_loader):
    model.eval()
    correct = 0.0
    for x, y in val_loader:
        correct += score_batch(model, x, y).item()  # expect: ML003
    return correct
