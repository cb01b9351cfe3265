# Nothing in this file calls the cached helper or shows what `adapter_layer` is: only its name says it
# is a module, so the finding is an assumption, shown with `--preview` only.
import warnings
from functools import lru_cache


@lru_cache(None)  # preview: ML012
def warn_once_about_hooks(adapter_layer):
    if adapter_layer.base._forward_hooks:
        warnings.warn("hooks on the base layer are bypassed by the adapter")
