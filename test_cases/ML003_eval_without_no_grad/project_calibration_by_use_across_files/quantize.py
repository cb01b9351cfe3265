# Linted as one project with calibration.py: `calibrate` runs only under this torch.no_grad().
import torch
from torch import nn

from calibration import calibrate, propagate


def quantize(cached):
    block = nn.Linear(16, 16)
    with torch.no_grad():
        calibrate(block, cached, len(cached))
    propagate(block, cached, len(cached))
