# `layer` is named like a module, but the project's only call of the cached function hands it a
# string: the cache keeps names, and no module.
import functools


@functools.lru_cache(maxsize=None)
def layer_group(layer):
    return layer.split(".")[0]
