"""Classes that take gradients on purpose (explainers, adversarial attacks): calling one needs grad on."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from memlint.analysis.library import GRADIENT_LIBRARIES

if TYPE_CHECKING:
    from memlint.analysis.context import FileContext


def differentiates(model: "FileContext", cls: cst.ClassDef, seen: frozenset[str] = frozenset()) -> bool:
    """Does `cls` take gradients on purpose (an explainer, an adversarial attack): its methods
    differentiate (backward, `torch.autograd.grad`, inputs made to require grad), or it derives from,
    or makes, a class that does (of this file, or of a gradient library of the library table)?
    Calling such an object needs grad on."""
    if seen:
        return _differentiates(model, cls, seen)
    # asked of a class for every call of its objects and for the file's summary: once per class
    # (the memo lives in the model's own attributes, dropped with them by `release`)
    memo = model.__dict__.setdefault("_differentiating", {})
    if id(cls) not in memo:
        memo[id(cls)] = _differentiates(model, cls, seen)
    return memo[id(cls)]


def _differentiates(model: "FileContext", cls: cst.ClassDef, seen: frozenset[str]) -> bool:
    regions = model.eval_regions  # type: ignore[attr-defined]
    classes = model.calls.classes
    seen = seen | {cls.name.value}

    def does(expr: cst.BaseExpression) -> bool:  # a class that differentiates, as named in this file
        if type(expr) is cst.Name and expr.value in classes:
            return expr.value not in seen and differentiates(model, classes[expr.value], seen)
        return (model.imports.resolve(expr) or "").startswith(GRADIENT_LIBRARIES)

    if any(does(base.value) for base in cls.bases):
        return True
    methods = [stmt for stmt in cls.body.body if isinstance(stmt, cst.FunctionDef)]
    return any(regions.needs_grad(m) for m in methods) or any(
        does(call.func) for m in methods for call in model.tree.descendants(m, cst.Call)
    )
