# `layer` is named like a module, but every call of the cached function hands it a layer's name (a
# string): the cache keeps strings, a few of them, and no module.
import functools

import torch


@functools.lru_cache(maxsize=None)
def layer_group(layer):
    return layer.split(".")[0]


def groups(model: torch.nn.Module):
    found = {}
    for name, _ in model.named_parameters():
        found.setdefault(layer_group(f"encoder.{name}"), []).append(name)
    return {layer_group("decoder"): [], **found}
