from __future__ import annotations

import libcst as cst

from memlint.analysis.syntax.expressions import callee_name, code, method_name
from memlint.analysis.regions.guards import runs_sometimes
from memlint.analysis.facts.hooks import (
    DISCARDED,
    GLOBAL_HOOKS,
    KEPT,
    MODULE_HOOK_METHODS,
    REMOVED_LATE,
    TENSOR_HOOK_METHODS,
    UNREMOVED,
    Handles,
)
from memlint.analysis.facts.lifetimes import fresh_module, long_lived_tensor
from memlint.analysis.regions.per_step import step_context
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

Also checks for an object of a class of this file built on every step
(`probe = ActivationProbe(model)` in the loop) whose `__init__` registers a
hook on a module it is given, when the step neither removes it (a method of
the class that calls `.remove()`, called on the object in the same step) nor
opens the object with `with` (an `__exit__` that removes).

Across files: a call, on every step, of a function of another file of the
project that registers a module hook on the module it is handed and neither
removes the handle nor returns it (by that file's summary).

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
        self._reported_sites: set[int] = set()

    def visit_Call(self, node: cst.Call) -> None:
        kind = self._hook_kind(node)
        if kind is None:
            return
        model = self.model
        context = step_context(model, node, lambda n, region: runs_sometimes(model, n, region))
        if context is None:
            if kind == "module":
                self._registered_by_constructor(node)
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

    # -- a hook registered by `__init__` of an object built every step ------------------
    def _registered_by_constructor(self, node: cst.Call) -> None:
        """`Probe(model)` in the loop, where `Probe.__init__` registers a hook on `model` that no step removes."""
        model = self.model
        init = model.scope_of(node)
        cls = model.enclosing_class(init) if isinstance(init, cst.FunctionDef) else None
        if cls is None or init.name.value != "__init__" or not self._on_argument_module(node, init):
            return
        if self._handles is None:
            self._handles = Handles(model)
        fate = self._handles.fate(node, init)
        if fate.kind == KEPT:
            return
        removers = self._removing_methods(cls) if fate.kind != DISCARDED else set()
        method = method_name(node) or "register_forward_hook"
        runs = "backward" if "backward" in method else "forward"
        for site in self._constructions(cls):
            context = step_context(model, site, lambda n, region: runs_sometimes(model, n, region))
            if context is None or id(site) in self._reported_sites or self._removed_in_step(site, removers, context):
                continue
            self._reported_sites.add(id(site))
            lost = "discards the handle" if fate.kind == DISCARDED else "never removes it"
            message = (
                f"`{cls.name.value}(...)` runs on {context.where} and its `__init__` registers a {runs} hook "
                f"(line {model.range_of(node).start.line}) and {lost}, so hooks pile up"
            )
            hint = (
                f"build the `{cls.name.value}` once, before the loop, or remove its hooks in the same step "
                "(a method that calls `handle.remove()`, or a context manager): every later "
                f"{runs} runs all of them and what they capture stays alive"
            )
            self.report(site, message, hint)

    def _on_argument_module(self, node: cst.Call, init: cst.FunctionDef) -> bool:
        """Is the hook on a module the object is given (`model`, `self.model = model`), which outlives it?"""
        receiver = node.func.value if isinstance(node.func, cst.Attribute) else None
        parts = code(receiver).split(".") if receiver is not None else []
        params = self.model.params(init) - {"self"}
        if parts and parts[0] in params:
            return True
        if len(parts) >= 2 and parts[0] == "self":
            for assign in self.model.tree.descendants(init, cst.Assign):
                target = code(assign.targets[0].target)
                if target == f"self.{parts[1]}" and isinstance(assign.value, cst.Name) and assign.value.value in params:
                    return True
        return False

    def _constructions(self, cls: cst.ClassDef) -> list[cst.Call]:
        return [
            call
            for call in self.model.tree.by_type.get(cst.Call, ())
            if isinstance(call.func, cst.Name) and call.func.value == cls.name.value
        ]

    def _removing_methods(self, cls: cst.ClassDef) -> set[str]:
        """Methods of the class that call `.remove()` (on a handle): `remove`, `close`, `__exit__`, ..."""
        return {
            stmt.name.value
            for stmt in cls.body.body
            if isinstance(stmt, cst.FunctionDef)
            and any(a.attr.value == "remove" for a in self.model.tree.descendants(stmt, cst.Attribute))
        }

    def _removed_in_step(self, site: cst.Call, removers: set[str], context) -> bool:
        """`with Probe(model):` or `probe = Probe(model)` ... `probe.remove()` in the same step."""
        tree = self.model.tree
        parent = tree.parent_of(site)
        if isinstance(parent, cst.WithItem):
            return "__exit__" in removers
        if not (isinstance(parent, cst.Assign) and isinstance(parent.targets[0].target, cst.Name)):
            return False
        name = parent.targets[0].target.value
        return any(
            method_name(call) in removers and isinstance(call.func.value, cst.Name) and call.func.value.value == name
            for call in tree.descendants(context.region, cst.Call)
            if isinstance(call.func, cst.Attribute)
        )

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
