"""How long what a hook is registered on lives: past the step, or only for it.

A hook on a parameter or buffer (`self.net.weight.register_hook(...)`, a name
bound from `model.parameters()`) or on a module that outlives the step
collects one more hook per step; a hook on a tensor computed in the step, or
on a module built in the step (`copy.deepcopy(model)`), dies with it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from memlint.analysis.syntax.expressions import callee_name, root_name
from memlint.analysis.syntax.imports import dotted

if TYPE_CHECKING:
    from memlint.analysis.model import SemanticModel

_PARAMETER_SOURCES = ("parameters", "named_parameters", "buffers", "named_buffers", "get_parameter")
_FRESH_FACTORIES = ("deepcopy", "copy")
_SETUP_METHODS = ("__init__", "setup", "configure_model", "build", "reset_parameters", "_init_weights")


def long_lived_tensor(model: "SemanticModel", call: cst.Call, region: cst.CSTNode) -> bool:
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
            return not _assigned_per_call(model, text)
        if parts[-1] in ("weight", "bias") or parts[-1].endswith(("_weight", "_bias")):
            return True
        return not _bound_in_step(model, parts[0], call, region)
    return _parameter_name(model, parts[0], call, region)

def _assigned_per_call(model: "SemanticModel", text: str) -> bool:
    """Is `self.x` assigned outside construction (an activation kept by `forward`)?"""
    for assign in model.tree.by_type.get(cst.Assign, ()):
        for target in assign.targets:
            if dotted(target.target) == text:
                scope = model.scope_of(assign)
                if not (isinstance(scope, cst.FunctionDef) and scope.name.value in _SETUP_METHODS):
                    return True
    return False

def _parameter_name(model: "SemanticModel", name: str, call: cst.Call, region: cst.CSTNode) -> bool:
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
    return not _bound_in_step(model, name, call, region) and name not in model.params(scope)

def _bound_in_step(model: "SemanticModel", name: str, call: cst.Call, region: cst.CSTNode) -> bool:
    scope = model.scope_of(call)
    if isinstance(region, cst.FunctionDef) and name in model.params(region):
        return True
    return any(model.tree.contains(region, b.node) for b in model.bindings(scope, name))

def fresh_module(model: "SemanticModel", call: cst.Call, region: cst.CSTNode) -> bool:
    """A module built in this step (`m = copy.deepcopy(model)`): its hooks die with it."""
    if not isinstance(call.func, cst.Attribute):
        return False
    root = root_name(call.func.value)
    if root is None or root in ("self", "cls"):
        return False
    for binding in model.bindings(model.scope_of(call), root):
        if not model.tree.contains(region, binding.node) or not isinstance(binding.value, cst.Call):
            continue
        name = callee_name(binding.value) or ""
        if name[:1].isupper() or name in _FRESH_FACTORIES:
            return True
    return False


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
