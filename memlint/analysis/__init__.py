"""The shared semantic model that every rule queries.

Layers, each built only on those before it:

* `tree`, `expressions`, `imports`: the parsed file, expression helpers and
  what imported names resolve to;
* `scopes`: scopes, bindings, loops around a node and local call sites
  (with `closures`: inner functions a factory returns, followed to their calls);
* `grad_mode`: which code runs with autograd on;
* `context.FileContext`: the above bundled for one file;
* `provenance` (which values may carry autograd history) and `loops` (which
  loops train or evaluate and what outlives an iteration), built on a
  `FileContext`;
* `flow` (library models as data, abstract values, function summaries: what
  a function returns and does with its parameters), which provenance, loops
  and the rules ask instead of reading another function's body;
* `model.SemanticModel`: the file's full model, the one rules receive;
  `hooks`, `per_step`, `object_kinds` and `project` answer questions on it,
  as do `guards` (once-only and per-step conditions), `lifetimes` (what a hook
  is registered on outlives the step), `accumulation` (gradient accumulation
  loops), `methods` (a class's own methods and their defaults), `ranks`
  (rank-0-only code) and `checkpoints` (checkpoints saved from the CPU).
"""

from memlint.analysis.model import SemanticModel

__all__ = ["SemanticModel"]
