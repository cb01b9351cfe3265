# The twins of good_network_frozen_by_its_constructor.py: the script asks the constructor for
# trainable parameters (`requires_grad=True`), or the constructor freezes its parameters before it
# adds a head that stays trainable: the loop records a graph on every batch for nothing.
import numpy as np
import torch
from torch import nn


class FeatureNet(nn.Module):
    def __init__(self, dims=64, resize_input=True, requires_grad=False):
        super().__init__()
        self.resize_input = resize_input
        self.blocks = nn.Sequential(nn.Conv2d(3, dims, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        for param in self.parameters():
            param.requires_grad = requires_grad

    def forward(self, x):
        return self.blocks(x)


class HeadedNet(nn.Module):
    def __init__(self, dims=64):
        super().__init__()
        self.blocks = nn.Sequential(nn.Conv2d(3, dims, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        for param in self.parameters():
            param.requires_grad = False
        self.head = nn.Linear(dims, dims)

    def forward(self, x):
        return self.head(self.blocks(x).flatten(1))


def get_activations(images, model, batch_size=16):
    model.eval()
    out = np.empty((len(images), 64))
    with torch.no_grad():
        for start in range(0, len(images), batch_size):
            batch = torch.from_numpy(images[start : start + batch_size]).float()
            pred = model(batch)  # expect: ML003
            out[start : start + batch_size] = pred.detach().cpu().numpy().reshape(len(batch), -1)
    return out


def fid_of_folders(first, second):
    model = FeatureNet(64, requires_grad=True)
    return get_activations(first, model).mean() - get_activations(second, model).mean()


def headed_features(images):
    model = HeadedNet(64)
    model.eval()
    feats = []
    with torch.no_grad():
        for start in range(0, len(images), 16):
            batch = torch.from_numpy(images[start : start + 16]).float()
            feats.append(model(batch).detach().cpu().numpy())  # expect: ML003
    return np.concatenate(feats)
