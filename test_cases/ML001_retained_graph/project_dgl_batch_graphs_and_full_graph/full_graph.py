# Linted as one project with layers.py and train.py: node classification on one whole graph, which
# this file's training loop hands to the model at every step; the features each forward writes into
# it stay there, with their graph, until the next forward overwrites them.
import dgl.function as fn
import torch
import torch.nn as nn
import torch.nn.functional as F


class GCNLayer(nn.Module):
    def __init__(self, in_feats, out_feats):
        super().__init__()
        self.linear = nn.Linear(in_feats, out_feats)

    def forward(self, g, feat):
        g.ndata["h"] = self.linear(feat)  # expect: ML001
        g.update_all(fn.copy_u("h", "m"), fn.sum("m", "h"))
        return g.ndata["h"]


def train(g, features, labels, epochs):
    model = GCNLayer(features.shape[1], int(labels.max()) + 1)
    optimizer = torch.optim.Adam(model.parameters())
    for epoch in range(epochs):
        logits = model(g, features)
        loss = F.cross_entropy(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
