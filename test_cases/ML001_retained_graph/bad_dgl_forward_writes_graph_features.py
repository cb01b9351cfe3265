# A DGL graph keeps the features written into `g.ndata`: full-graph training hands the same graph
# to every forward, so each step's activations, graph included, stay on it until overwritten.
import torch.nn as nn
import dgl.function as fn


class GraphConv(nn.Module):
    def __init__(self, in_feats, out_feats):
        super().__init__()
        self.linear = nn.Linear(in_feats, out_feats)

    def forward(self, g, feat):
        g.ndata["h"] = self.linear(feat)  # expect: ML001
        g.update_all(fn.copy_u("h", "m"), fn.sum("m", "h"))
        return g.ndata["h"]


def train(model, g, features, labels, optimizer, epochs):
    for epoch in range(epochs):
        logits = model(g, features)
        loss = nn.functional.cross_entropy(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
