# Linted as one project with train.py: the loaders the training script takes its models from.
# `load_reference` hands back a model it put in eval mode, with parameters that still require
# grad; `load_frozen_reference` freezes them first; `load_trainable` leaves the mode as it is.
import torch
import torch.nn as nn


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(64, 64)

    def forward(self, x):
        return self.body(x)


def load_reference(path):
    ref = Policy()
    ref.load_state_dict(torch.load(path, map_location="cpu"))
    ref.eval()
    return ref


def load_frozen_reference(path):
    ref = Policy()
    ref.load_state_dict(torch.load(path, map_location="cpu"))
    for p in ref.parameters():
        p.requires_grad = False
    return ref.eval()


def load_trainable(path):
    net = Policy()
    net.load_state_dict(torch.load(path, map_location="cpu"))
    return net
