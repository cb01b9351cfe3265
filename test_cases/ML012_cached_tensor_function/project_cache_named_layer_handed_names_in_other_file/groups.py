import torch

from naming import layer_group


def groups(model: torch.nn.Module):
    found = {}
    for name, _ in model.named_parameters():
        found.setdefault(name, []).append(layer_group("encoder"))
    return found
