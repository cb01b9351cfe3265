# Linted as one project with saver.py: `model_stats.pt` holds two Python floats, whatever its name
# says; `weights_last.pt` is a state dict as the model held it, on its device, which this load puts
# back there (a fact from saver.py, not an assumption from the name).
import os

import torch


def load_stats(directory):
    stats = torch.load(os.path.join(directory, "model_stats.pt"))
    return stats["mean"], stats["std"]


def load_last(directory):
    weights = torch.load(os.path.join(directory, "weights_last.pt"))  # expect: ML011
    return weights
