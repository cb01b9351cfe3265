# Only the backbone is frozen (and the head is made to require grad again): the model's forward
# still records the head's graph on every evaluation batch.
import torch


def compute_distances(model, labels, device):
    model.eval()
    for p in model.backbone.parameters():
        p.requires_grad = False
    dist = []
    for c in labels:
        x = model(c.to(device))  # expect: ML003
        dist.append(x.max().item())
    return dist


def select_network(paths, graphs, device):
    scores = []
    for path in paths:
        network = Net().to(device)
        network.requires_grad_(False)
        network.head.requires_grad_(True)
        network.eval()
        for graph in graphs:
            scores.append(network(graph).max().item())  # expect: ML003
    return scores
