"""The shared semantic model that every rule queries.

`SemanticModel` (in `model.py`) bundles the per-file answers: which code runs
with autograd on (`grad_mode`), which values may carry autograd history
(`provenance`), which loops train or evaluate and what outlives an iteration
(`loops`), and what imported names resolve to (`imports`).
"""

from memlint.analysis.model import SemanticModel

__all__ = ["SemanticModel"]
