# Linted as one project with features.py: the network built without the argument is frozen by its
# constructor, so the loop it is handed to records no graph; built with `requires_grad=True`, its
# parameters take gradients and the other loop records a graph on every batch.
import numpy as np
import torch

from features import FeatureNet


def get_activations(images, model):
    model.eval()
    return np.concatenate([model(torch.from_numpy(images[i : i + 16]).float()).numpy() for i in range(0, len(images), 16)])


def fid_of_folders(first, second):
    model = FeatureNet(64)
    return get_activations(first, model).mean() - get_activations(second, model).mean()


def trainable_features(images):
    model = FeatureNet(64, requires_grad=True)
    model.eval()
    feats = []
    for start in range(0, len(images), 16):
        batch = torch.from_numpy(images[start : start + 16]).float()
        feats.append(model(batch).detach().numpy())  # expect: ML003
    return np.concatenate(feats)
