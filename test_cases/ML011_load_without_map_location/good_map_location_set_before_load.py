# The None is replaced on every path before the load; a wrapper that hands its caller's
# `map_location` on leaves the choice to its callers (a call that omits it is found there).
import torch


def load_for_training(model, path):
    map_location = None
    map_location = torch.device("cpu")
    checkpoint = torch.load(path, map_location=map_location)
    model.load_state_dict(checkpoint["model"])
    return checkpoint["step"]


def load_checkpoint_file(path, map_location=None):
    return torch.load(path, map_location=map_location)
