"""The shared semantic model that every rule queries.

Layers, each built only on those before it:

* `tree`, `expressions`, `imports`: the parsed file, expression helpers and
  what imported names resolve to;
* `scopes`: scopes, bindings, loops around a node and local call sites;
* `grad_mode`: which code runs with autograd on;
* `context.FileContext`: the above bundled for one file;
* `provenance` (which values may carry autograd history) and `loops` (which
  loops train or evaluate and what outlives an iteration), built on a
  `FileContext`;
* `model.SemanticModel`: the file's full model, the one rules receive;
  `hooks`, `per_step`, `object_kinds` and `project` answer questions on it.
"""

from memlint.analysis.model import SemanticModel

__all__ = ["SemanticModel"]
