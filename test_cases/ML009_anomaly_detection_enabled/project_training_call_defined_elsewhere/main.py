# Linted as one project with loops.py: what loops.py's function does decides, not its name.
import torch

from loops import run_epochs


def main(model, optimizer, loader):
    with torch.autograd.detect_anomaly():  # expect: ML009
        run_epochs(model, optimizer, loader, 3)
