from __future__ import annotations

import libcst as cst

from memlint.analysis.expressions import callee_name, method_name, names_in, root_name, target_names
from memlint.analysis.hooks import (
    DISCARDED,
    GLOBAL_HOOKS,
    MODULE_HOOK_METHODS,
    REMOVED_LATE,
    TENSOR_HOOK_METHODS,
    UNREMOVED,
    Handles,
)
from memlint.analysis.imports import dotted
from memlint.analysis.per_step import step_context
from memlint.models import Applicability, Severity
from memlint.rules.base import Rule

_PARAMETER_SOURCES = ("parameters", "named_parameters", "buffers", "named_buffers", "get_parameter")
_FRESH_FACTORIES = ("deepcopy", "copy")
_SETUP_METHODS = ("__init__", "setup", "configure_model", "build", "reset_parameters", "_init_weights")


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
        context = step_context(model, node, self._conditional)
        if context is None:
            return
        if kind == "tensor" and not self._long_lived_tensor(node, context.region):
            return
        if kind == "module" and self._fresh_module(node, context.region):
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
        message = (
            f"`{method}(...)` runs on {context.where} and {lost}: each step adds one more hook to the {owner}, "
            f"every later {runs} runs all of them, and whatever they capture stays alive (the leak of NeuroBench "
            "issue 184)"
        )
        hint = (
            "register the hook once (in `__init__` or before the loop) and keep its handle, or remove it in the "
            f"same step: `with {owner}.{method}(fn): ...` or `handle.remove()` after the {runs}"
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

    def _long_lived_tensor(self, call: cst.Call, region: cst.CSTNode) -> bool:
        """Is the receiver of `.register_hook` a parameter or buffer (not a tensor of this step)?"""
        receiver = call.func.value
        if isinstance(receiver, cst.Call):
            return callee_name(receiver) in _PARAMETER_SOURCES
        parts = _parts(receiver)
        if not parts:
            return False
        text = ".".join(parts)
        if "grad_fn" in parts or "grad" in parts[1:]:
            return False  # a graph node or a gradient of this step
        if len(parts) > 1:
            if parts[0] in ("self", "cls"):
                return not self._assigned_per_call(text)
            if parts[-1] in ("weight", "bias") or parts[-1].endswith(("_weight", "_bias")):
                return True
            return not self._bound_in_step(parts[0], call, region)
        return self._parameter_name(parts[0], call, region)

    def _assigned_per_call(self, text: str) -> bool:
        """Is `self.x` assigned outside construction (an activation kept by `forward`)?"""
        model = self.model
        for assign in model.tree.by_type.get(cst.Assign, ()):
            for target in assign.targets:
                if dotted(target.target) == text:
                    scope = model.scope_of(assign)
                    if not (isinstance(scope, cst.FunctionDef) and scope.name.value in _SETUP_METHODS):
                        return True
        return False

    def _parameter_name(self, name: str, call: cst.Call, region: cst.CSTNode) -> bool:
        model = self.model
        scope = model.scope_of(call)
        bindings = model.bindings(scope, name)
        for binding in bindings:
            if isinstance(binding.node, (cst.For, cst.CompFor)):
                if any(s in (dotted(binding.node.iter) or _callee_text(binding.node.iter)) for s in _PARAMETER_SOURCES):
                    return True
            elif binding.value is not None:
                if "Parameter" in (model.imports.resolve(_func_of(binding.value)) or ""):
                    return True
        if isinstance(region, cst.FunctionDef):
            return False  # a parameter or local of the per-step function: this step's tensor
        return not self._bound_in_step(name, call, region) and name not in model.params(scope)

    def _bound_in_step(self, name: str, call: cst.Call, region: cst.CSTNode) -> bool:
        scope = self.model.scope_of(call)
        if isinstance(region, cst.FunctionDef) and name in self.model.params(region):
            return True
        return any(self.model.tree.contains(region, b.node) for b in self.model.bindings(scope, name))

    def _fresh_module(self, call: cst.Call, region: cst.CSTNode) -> bool:
        """A module built in this step (`m = copy.deepcopy(model)`): its hooks die with it."""
        if not isinstance(call.func, cst.Attribute):
            return False
        root = root_name(call.func.value)
        if root is None or root in ("self", "cls"):
            return False
        model = self.model
        for binding in model.bindings(model.scope_of(call), root):
            if not model.tree.contains(region, binding.node) or not isinstance(binding.value, cst.Call):
                continue
            name = callee_name(binding.value) or ""
            if name[:1].isupper() or name in _FRESH_FACTORIES:
                return True
        return False

    # -- when it runs ---------------------------------------------------------------
    def _conditional(self, node: cst.CSTNode, region: cst.CSTNode) -> bool:
        """Does `node` run only on some runs of `region`: under a once-only guard
        (`if self.handle is None:`), a guard that varies per step (`if step == 0:`),
        a per-call flag, or in an `except` handler? Loops over modules do not count."""
        model = self.model
        chain = []
        for anc in model.tree.ancestors(node):
            if anc is region:
                break
            chain.append(anc)
        inner: set[str] = set()
        for anc in chain:
            if isinstance(anc, (cst.For, cst.CompFor)):
                inner.update(target_names(anc.target))
        varying: set[str] | None = None
        for anc in chain:
            if isinstance(anc, (cst.ExceptHandler, cst.IfExp, cst.BooleanOperation, cst.Lambda, cst.FunctionDef)):
                return True
            if not isinstance(anc, cst.If):
                continue
            if self._once_guard(anc):
                return True
            names = set(names_in(anc.test)) - inner
            if isinstance(region, cst.FunctionDef):
                if names & (model.params(region) - {"self", "cls"}):
                    return True
            else:
                if varying is None:
                    varying = model.loops.bound_in(region)
                if names & varying:
                    return True
        return False

    def _once_guard(self, branch: cst.If) -> bool:
        """`if self.handle is None: self.handle = ...`, `if not hooked: ...; hooked = True`."""
        tree = self.model.tree
        tested = {dotted(n) for t in (cst.Name, cst.Attribute) for n in tree.descendants(branch.test, t)}
        tested.discard(None)
        if tested & {"hasattr", "getattr"}:
            return True
        for call in tree.descendants(branch.test, cst.Call):
            if callee_name(call) in ("hasattr", "getattr"):
                return True
        for comparison in tree.descendants(branch.test, cst.Comparison):
            for c in comparison.comparisons:
                if isinstance(c.operator, (cst.Is, cst.IsNot)) and dotted(c.comparator) == "None":
                    return True
        written: set[str] = set()
        for node_type in (cst.Assign, cst.AugAssign, cst.AnnAssign):
            for stmt in tree.descendants(branch.body, node_type):
                targets = [t.target for t in stmt.targets] if isinstance(stmt, cst.Assign) else [stmt.target]
                for target in targets:
                    while isinstance(target, cst.Subscript):
                        target = target.value
                    text = dotted(target)
                    if text:
                        written.add(text)
        for call in tree.descendants(branch.body, cst.Call):
            if method_name(call) in ("append", "extend", "add", "update") and dotted(call.func.value):
                written.add(dotted(call.func.value))
        return bool(tested & written)


def _parts(expr: cst.BaseExpression) -> list[str]:
    """`["self", "net", "weight"]` for `self.net[0].weight`; [] when not such a chain."""
    parts: list[str] = []
    while True:
        if isinstance(expr, cst.Attribute):
            parts.append(expr.attr.value)
            expr = expr.value
        elif isinstance(expr, cst.Subscript):
            expr = expr.value
        elif isinstance(expr, cst.Name):
            parts.append(expr.value)
            return parts[::-1]
        else:
            return []


def _func_of(expr: cst.BaseExpression) -> cst.BaseExpression:
    return expr.func if isinstance(expr, cst.Call) else expr


def _callee_text(expr: cst.BaseExpression) -> str:
    """`model.parameters` for `model.parameters()`; '' when not a call chain."""
    while isinstance(expr, cst.Call):
        if callee_name(expr) in ("list", "enumerate", "zip", "filter", "sorted", "reversed") and expr.args:
            expr = expr.args[0].value
            continue
        return dotted(expr.func) or ""
    return dotted(expr) or ""
