# pytorch-fid's shape: the network's constructor ends by setting `requires_grad` of every parameter
# to its argument, False by default; the script builds it without that argument and hands it through
# three functions to the loop that runs it on batches made from NumPy: nothing requires grad, no graph.
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


def get_activations(images, model, batch_size=16):
    model.eval()
    out = np.empty((len(images), 64))
    for start in range(0, len(images), batch_size):
        batch = torch.from_numpy(images[start : start + batch_size]).float()
        pred = model(batch)
        out[start : start + batch_size] = pred.cpu().numpy().reshape(len(batch), -1)
    return out


def activation_statistics(images, model):
    act = get_activations(images, model)
    return act.mean(axis=0), np.cov(act, rowvar=False)


def statistics_of_folder(images, model):
    return activation_statistics(images / 255.0, model)


def fid_of_folders(first, second):
    model = FeatureNet(64)
    m1, s1 = statistics_of_folder(first, model)
    m2, s2 = statistics_of_folder(second, model)
    return float(((m1 - m2) ** 2).sum() + np.trace(s1 + s2))
