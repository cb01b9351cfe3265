# Linted as one project with engine.py: the optimizer is built here, over the head alone.
import torch
from torch import nn

from engine import train_one_epoch


def main(loader, epochs):
    backbone = nn.Sequential(nn.Linear(64, 128), nn.ReLU())
    head = nn.Linear(128, 10)
    optimizer = torch.optim.SGD(head.parameters(), lr=0.1)
    for epoch in range(epochs):
        train_one_epoch(loader, backbone, head, nn.CrossEntropyLoss(), optimizer)
