"""Which functions run a model with autograd on, directly or through the functions they call.

A per-function fact for evaluation regions (ML003): `validation_step` runs the
model through `self.infer(x)`, a helper with no loop of its own that other
methods also call from training code. The fact is the callee's, computed once
per function from its body and its own callees (a call back into a function
being computed reads as "runs none"), so a caller asks instead of reading the
callee's body. Training code is no model run for this fact: a function that
differentiates wants the graph it builds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from memlint.analysis.expressions import target_names
from memlint.analysis.grad_mode import Grad

if TYPE_CHECKING:
    from memlint.analysis.model import SemanticModel

_PENDING = object()


class ModelRuns:
    def __init__(self, model: "SemanticModel") -> None:
        self.model = model
        self._runs: dict[int, object] = {}

    def model_run(self, func: cst.FunctionDef) -> tuple[cst.Call, ...] | None:
        """The chain of calls by which `func` runs a model with grad on: `(self.module_(x),)` for a
        direct run, `(self.infer(x), self.module_(x))` through a callee; None when it runs none, when
        it differentiates (training code), or when it sets grad off on entry."""
        key = id(func)
        found = self._runs.get(key)
        if found is _PENDING:
            return None
        if key in self._runs:
            return found  # type: ignore[return-value]
        self._runs[key] = _PENDING
        chain = self._compute(func)
        self._runs[key] = chain
        return chain

    def _compute(self, func: cst.FunctionDef) -> tuple[cst.Call, ...] | None:
        model = self.model
        if model.grad.entry_state(func) is Grad.OFF or model.loops.trains_each_iteration(func):
            return None
        for call in model.tree.descendants(func.body, cst.Call):
            if model.scope_of(call) is not func or model.grad_state(call) is Grad.OFF:
                continue
            if self.runs_module(call):
                return (call,)
            for callee in model.local_callees(call):
                inner = self.model_run(callee)
                if inner is not None:
                    return (call, *inner)
        return None

    def runs_module(self, call: cst.Call) -> bool:
        """Does `call` itself run a module's forward (not a loss, not a function of this file)? A
        module by what the file does with it (`.eval()`, `.parameters()`), whatever its name; a
        guess from a name only where the file does not show the callee is something else."""
        model = self.model
        facts = model.module_facts
        provenance = model.provenance
        runs = facts.runs_module(call) or (provenance.is_module_call(call) and not facts.not_module(call))
        return runs and not provenance.is_loss_call(call)

    def feeds_backward(self, call: cst.Call) -> bool:
        """Is what `call` returns differentiated in its function (`y = self.infer(x)`, then
        `loss = criterion(y, t)`, `loss.backward()`)? Then it is training code, graph wanted."""
        model = self.model
        scope = model.scope_of(call)
        provenance = model.provenance
        backwarded = provenance.backwarded_names(scope)
        if not backwarded:
            return False
        statement = model.tree.statement_of(call)
        if isinstance(statement, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
            targets = [t.target for t in statement.targets] if isinstance(statement, cst.Assign) else [statement.target]
            bound = {n for t in targets for n in target_names(t)}
        else:
            bound = set()
        if any(model.tree.contains(expr, call) for _, exprs in provenance.backward_calls(scope) for expr in exprs):
            return True  # `self.infer(x).sum().backward()`
        return bool(bound & provenance.dependencies(backwarded, scope))
