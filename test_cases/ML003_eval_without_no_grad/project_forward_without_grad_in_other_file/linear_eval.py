# Linted as one project with features.py: the evaluation runs the backbone through wrappers of
# another file. One records no graph (its forward runs under inference mode, whatever this
# function is named); the other runs the backbone with grad on.
from functools import partial

import torch

from features import FrozenFeatures, TunedFeatures


def evaluate_features(backbone, val_loader):
    feature_model = FrozenFeatures(backbone, partial(torch.autocast, "cuda"))
    tuned = TunedFeatures(backbone)
    outputs = []
    for images, _ in val_loader:
        outputs.append(feature_model(images))
        outputs.append(tuned(images))  # expect: ML001, ML003
    return outputs
