# Linted as one project with calibration.py: differentiates the outputs it is handed.
import torch


def backprop(outputs):
    torch.stack(outputs).sum().backward()
