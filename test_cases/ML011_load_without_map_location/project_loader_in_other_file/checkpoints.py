# Linted as one project with train.py: a loader that hands its `map_location` (None unless the
# caller passes one) to `torch.load`.
import torch


def load_checkpoint_file(path, map_location=None):
    return torch.load(path, map_location=map_location)
