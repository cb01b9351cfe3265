"""The shared semantic model that every rule queries.

Layers, each built only on those before it (no import circles; a test checks):

* `syntax/`: the parsed file (`tree`), source `positions`, `expressions`
  helpers, what imported names resolve to (`imports`), `scopes` and bindings,
  `closures` (inner functions a factory returns) and `calls` (the functions a
  call may reach and each function's call sites);
* `library`: what third-party calls do to a value (detach, item, cpu, a
  Lightning `log`, a torchmetrics `update`, ...), as one data table;
* `regions/`: grad mode (`grad`, `grad_mode`), framework hooks and the grad
  mode each runs under (`frameworks`, `hf_trainer`, `lightning_precision`),
  `loops` (which train or evaluate, what outlives an iteration), `per_step`
  code, `guards` and gradient `accumulation`;
* `context.FileContext`: the syntax layer and grad mode bundled for one file;
* `flow/`: abstract `values`, `bindings` of unpacked calls, `provenance`
  (which values may carry autograd history, which tensors live on the device),
  `module_facts` and `object_kinds` (what a callee or parameter holds), and
  function `summaries` (what a function returns and does with its parameters),
  which the rules ask instead of reading another function's body; `combined`
  and `consumers` (what later code does with collected values);
* `facts/`: what one or two rules ask about (custom autograd Functions,
  checkpoints, CUDA initialisation, hooks and their lifetimes, ranks);
* `model.SemanticModel`: the file's full model, the one rules receive, and
  `project`: what one file's findings depend on in another.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memlint.analysis.model import SemanticModel


def __getattr__(name: str):
    # on first use: the project index reads `library`'s tables without importing LibCST
    if name == "SemanticModel":
        from memlint.analysis.model import SemanticModel

        return SemanticModel
    raise AttributeError(name)


__all__ = ["SemanticModel"]
