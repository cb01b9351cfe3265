# Linted as one project with knn_modules.py: `create_module_dict` calls what it is handed as
# `module`. Handed a `functools.partial` of a class of the project (as dinov2's eval_knn), the call
# constructs k-NN modules and runs no model; handed a model, it runs it with grad on.
from functools import partial

import torch

from knn_modules import KnnModule


def create_module_dict(*, module, n_tries, train_features, train_labels):
    modules = {}
    for t in range(n_tries):
        modules[str(t)] = module(train_features=train_features, train_labels=train_labels)
    return modules


def eval_knn(model, train_features, train_labels, temperature):
    partial_module = partial(KnnModule, nb_knn=[10, 20], T=temperature)
    knn_module_dict = create_module_dict(
        module=partial_module, n_tries=1, train_features=train_features, train_labels=train_labels
    )
    outputs = create_module_dict(  # expect: ML003
        module=model, n_tries=1, train_features=train_features, train_labels=train_labels
    )
    return torch.nn.ModuleDict(knn_module_dict), outputs
