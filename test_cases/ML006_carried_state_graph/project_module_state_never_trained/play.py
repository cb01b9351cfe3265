# Linted as one project with memory.py: an interactive loop that runs the module and never trains it.
import torch

from memory import Recurrent


def play(frames, size):
    model = Recurrent(size)
    with torch.no_grad():
        return [model(frame).argmax(-1).item() for frame in frames]
