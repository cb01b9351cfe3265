# Linted as one project with layers.py and full_graph.py: graph classification on mini-batches,
# where every step builds its own batched graph, which dies with the step together with the
# features written into it.
import torch
import torch.nn.functional as F

from layers import GraphConv


def train(loader, epochs):
    model = GraphConv(16, 4)
    optimizer = torch.optim.Adam(model.parameters())
    for epoch in range(epochs):
        for batch_graph, labels in loader:
            logits = model(batch_graph, batch_graph.ndata["feat"])
            loss = F.cross_entropy(logits, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
