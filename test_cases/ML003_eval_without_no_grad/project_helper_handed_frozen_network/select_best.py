import torch

from util import test_network


def select(paths, graphs, device):
    best = []
    for path in paths:
        network = Net().to(device)
        network.load_state_dict(torch.load(path, map_location=device))
        for param in network.parameters():
            param.requires_grad = False
        network.eval()
        for graph in graphs:
            results = test_network(network, [graph], device)
            best.append(results["cut"][0])
    return best
