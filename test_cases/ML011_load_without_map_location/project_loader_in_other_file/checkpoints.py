# Linted as one project with train.py: loaders that hand `torch.load` the `map_location` their
# callers pass (None unless they pass one): a parameter of theirs, or the `**kwargs` they forward.
import torch


def load_checkpoint_file(path, map_location=None):
    return torch.load(path, map_location=map_location)


def load_any(*args, **kwargs):
    return torch.load(*args, **kwargs)
