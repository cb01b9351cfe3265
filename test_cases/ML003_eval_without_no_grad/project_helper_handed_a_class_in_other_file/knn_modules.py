# Linted as one project with knn.py: a k-NN classifier module, built from stored features.
import torch
from torch import nn


class KnnModule(nn.Module):
    def __init__(self, train_features, train_labels, nb_knn, T=0.07):
        super().__init__()
        self.train_features = train_features
        self.train_labels = train_labels
        self.nb_knn = nb_knn
        self.T = T

    def forward(self, features):
        similarity = features @ self.train_features.T
        return similarity.topk(max(self.nb_knn), dim=-1)
