# `eval_mode(...)` is a context manager of this file that yields inside `torch.no_grad()` (monai's
# networks.utils.eval_mode): the validation loop under it runs without grad.
from contextlib import contextmanager

import torch


@contextmanager
def eval_mode(*nets):
    training = [n for n in nets if n.training]
    try:
        with torch.no_grad():
            yield [n.eval() for n in nets]
    finally:
        for n in training:
            n.train()


def validate(model, criterion, val_loader):
    running_loss = 0.0
    with eval_mode(model):
        for inputs, labels in val_loader:
            running_loss += criterion(model(inputs), labels).item()
    return running_loss
