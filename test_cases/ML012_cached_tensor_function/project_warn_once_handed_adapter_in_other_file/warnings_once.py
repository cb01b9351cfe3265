# This file shows nothing of what `adapter_layer` is but its name; the adapter module of another file
# hands it itself on every forward, so the cache keeps every adapter (and its base weights) alive.
import warnings
from functools import lru_cache


@lru_cache(None)  # expect: ML012
def warn_once_about_hooks(adapter_layer):
    if adapter_layer.base._forward_hooks:
        warnings.warn("hooks on the base layer are bypassed by the adapter")
