# The twin of good_project_context_manager_no_grad.py: this `eval_mode` only switches the model to
# eval mode; it yields with grad on, so the validation loop records a graph per batch.
import torch
from contextlib import contextmanager


@contextmanager
def eval_mode(net):
    net.eval()
    yield net
    net.train()


@torch.no_grad()
def validate(model, criterion, val_loader):
    running_loss = 0.0
    with eval_mode(model):
        for inputs, labels in val_loader:
            running_loss += criterion(model(inputs), labels).item()  # expect: ML003
    return running_loss
