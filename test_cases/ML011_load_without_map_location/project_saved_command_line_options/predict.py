# Linted as one project with main.py and trainer.py: the options file holds the parsed command
# line, no tensor; the weights file holds the model's state dict as it was on the device.
import os

import torch
from torch import nn


def get_args(model_dir):
    return torch.load(os.path.join(model_dir, "training_args.bin"))


def load_model(model_dir):
    model = nn.Linear(16, 4)
    model.load_state_dict(torch.load(os.path.join(model_dir, "model.bin")))  # expect: ML011
    return model
