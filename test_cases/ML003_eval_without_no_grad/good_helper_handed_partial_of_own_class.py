# verify: flat
# As dinov2's eval_knn: `create_module_dict` calls what it is handed as `module`, here a
# `functools.partial` of `KnnModule`, a class of this file: the call constructs k-NN modules from
# stored features and runs no model, whatever the parameter is named.
from functools import partial

import torch
from torch import nn

device = "cuda" if torch.cuda.is_available() else "cpu"


class KnnModule(nn.Module):
    def __init__(self, train_features, nb_knn, T=0.07):
        super().__init__()
        self.train_features = train_features
        self.nb_knn = nb_knn
        self.T = T

    def forward(self, features):
        return (features @ self.train_features.T / self.T).topk(self.nb_knn, dim=-1)


def create_module_dict(*, module, n_tries, train_features):
    return {str(t): module(train_features=train_features[t::n_tries]) for t in range(n_tries)}


def eval_knn(train_features, temperature):
    partial_module = partial(KnnModule, nb_knn=5, T=temperature)
    knn_modules = create_module_dict(module=partial_module, n_tries=2, train_features=train_features)
    return nn.ModuleDict(knn_modules)


def main():
    for step in range(30):
        modules = eval_knn(torch.randn(64, 16, device=device), 0.07)
    print(len(modules))


if __name__ == "__main__":
    main()
