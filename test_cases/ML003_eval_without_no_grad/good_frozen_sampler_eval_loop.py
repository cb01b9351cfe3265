# Every parameter of the sampler is frozen (`requires_grad_(False)` in its placement chain) before
# the loop, and tracing it keeps them frozen: on inputs without history its forward records no
# graph, so the distances kept carry none.
import torch


def compute_distances(G, vgg, labels, device, jit):
    sampler = PathSampler(G=G, vgg16=vgg)
    sampler.eval().requires_grad_(False).to(device)
    if jit:
        sampler = torch.jit.trace(sampler, [torch.zeros(1, device=device)])
    dist = []
    for c in labels:
        x = sampler(c.to(device))
        dist.append(x.cpu())
    return torch.cat(dist)


def select_network(paths, graphs, device):
    scores = []
    for path in paths:
        network = Net().to(device)
        network.load_state_dict(torch.load(path, map_location=device))
        for param in network.parameters():
            param.requires_grad = False
        network.eval()
        for graph in graphs:
            scores.append(network(graph).max().item())
    return scores
