# Linted as one project with predictor.py: the Predictor is handed a module built here.
import torch

from predictor import Predictor


def serve(loader):
    network = torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.ReLU(), torch.nn.Linear(64, 10))
    return Predictor(network).predict(loader)
