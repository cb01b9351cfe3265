from __future__ import annotations

import libcst as cst

from memlint.analysis.expressions import callee_name, method_name
from memlint.analysis.guards import runs_sometimes
from memlint.analysis.hooks import (
    DISCARDED,
    GLOBAL_HOOKS,
    MODULE_HOOK_METHODS,
    REMOVED_LATE,
    TENSOR_HOOK_METHODS,
    UNREMOVED,
    Handles,
)
from memlint.analysis.lifetimes import fresh_module, long_lived_tensor
from memlint.analysis.per_step import step_context
from memlint.models import Applicability, Severity
from memlint.rules.base import Rule

class HookInLoop(Rule):
    code = "ML008"
    name = "hook-in-loop"
    severity = Severity.ERROR
    summary = "A hook is registered on every step and its handle is never removed"
    fix_applicability = Applicability.DISPLAY_ONLY
    needles = (("register_",), ("hook",))
    what = """
Checks for `register_forward_hook`, `register_forward_pre_hook`,
`register_full_backward_hook` (and the other module hooks), and
`Tensor.register_hook` on a parameter, that run on every step (inside a loop
over batches, in `forward`, `training_step`, or a function a training loop
calls) and whose returned handle is discarded or never `.remove()`d in that
step. Hooks registered once (in `__init__`, in setup, before the loop),
registered under a once-only guard, removed in the same step, or opened with
`with module.register_forward_hook(fn):` are fine. `register_hook` on a tensor
computed in the step is fine too: the hook dies with the tensor.

Severity: error, because the growth has no bound: one more hook every step
for as long as the program runs.
"""
    why = """
A hook stays registered until its handle's `.remove()` runs; dropping the
handle does not remove it. Registered once per step, the module (or
parameter) collects one more hook every step: every later forward or backward
calls all of them, and everything each one captures (the batch, a mask, an
output list) stays alive with it. NeuroBench (issue 184) leaked memory this way
when its benchmark added hooks on every run; MRFI (PR 5) and bdpy (PR 91) fixed
the same leak by keeping the handles and removing them.
"""
    example = """
for x, y in loader:
    mask = (torch.rand(1, 64, device=x.device) > 0.1).float()
    model.encoder.register_forward_hook(partial(apply_mask, mask=mask))
    loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()
"""
    use_instead = """
for x, y in loader:
    mask = (torch.rand(1, 64, device=x.device) > 0.1).float()
    with model.encoder.register_forward_hook(partial(apply_mask, mask=mask)):
        loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()
"""

    def __init__(self, model, sink) -> None:
        super().__init__(model, sink)
        self._handles: Handles | None = None

    def visit_Call(self, node: cst.Call) -> None:
        kind = self._hook_kind(node)
        if kind is None:
            return
        model = self.model
        context = step_context(model, node, lambda n, region: runs_sometimes(model, n, region))
        if context is None:
            return
        if kind == "tensor" and not long_lived_tensor(model, node, context.region):
            return
        if kind == "module" and fresh_module(model, node, context.region):
            return
        if self._handles is None:
            self._handles = Handles(model)
        fate = self._handles.fate(node, context.region)
        if fate.kind == DISCARDED:
            lost = "its handle is discarded"
        elif fate.kind == UNREMOVED:
            lost = f"its handle (`{fate.target}`) is never `.remove()`d"
        elif fate.kind == REMOVED_LATE:
            lost = f"its handles (`{fate.target}`) are removed only after the loop"
        else:
            return
        method = method_name(node) or callee_name(node) or "register_hook"
        owner = "parameter" if kind == "tensor" else "module"
        runs = "backward" if kind == "tensor" or "backward" in method else "forward"
        message = f"`{method}(...)` runs on {context.where} and {lost}, so hooks pile up on the {owner}"
        hint = (
            "register the hook once (in `__init__` or before the loop) and keep its handle, or remove it in the "
            f"same step: `with {owner}.{method}(fn): ...` or `handle.remove()` after the {runs}; every later "
            f"{runs} runs all of them and what they capture stays alive (the leak of NeuroBench issue 184)"
        )
        self.report(node, message, hint)

    # -- what is registered, and on what ---------------------------------------------
    def _hook_kind(self, call: cst.Call) -> str | None:
        if not call.args:
            return None  # `self.register_forward_hook()`: a method of the caller's own
        method = method_name(call)
        if method in MODULE_HOOK_METHODS:
            return "module"
        if method in TENSOR_HOOK_METHODS:
            return "tensor"
        if isinstance(call.func, cst.Name) and self.model.imports.resolve(call.func) in GLOBAL_HOOKS:
            return "global"
        return None
