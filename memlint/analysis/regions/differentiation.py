"""Classes that take gradients on purpose (explainers, adversarial attacks): calling one needs grad on."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from memlint.analysis.library import GRADIENT_LIBRARIES, MODULE_SELF_RETURNING

if TYPE_CHECKING:
    from memlint.analysis.context import FileContext


def differentiates(
    model: "FileContext", cls: cst.ClassDef, seen: frozenset[str] = frozenset(), strict: bool = False
) -> bool:
    """Does `cls` take gradients on purpose (an explainer, an adversarial attack): its methods
    differentiate (backward, `torch.autograd.grad`, inputs made to require grad), or it derives from,
    or makes, a class that does (of this file, or of a gradient library of the library table)?
    Calling such an object needs grad on. `strict`: only where a method itself differentiates
    (backward, `torch.autograd.grad`): a network whose layer makes its edge weights require grad,
    for explainers to differentiate later, predicts like any other."""
    if seen:
        return _differentiates(model, cls, seen, strict)
    # asked of a class for every call of its objects and for the file's summary: once per class
    # (the memo lives in the model's own attributes, dropped with them by `release`)
    memo = model.__dict__.setdefault("_differentiating", {})
    key = (id(cls), strict)
    if key not in memo:
        memo[key] = _differentiates(model, cls, seen, strict)
    return memo[key]


def _differentiates(model: "FileContext", cls: cst.ClassDef, seen: frozenset[str], strict: bool) -> bool:
    regions = model.eval_regions  # type: ignore[attr-defined]
    classes = model.calls.classes
    seen = seen | {cls.name.value}

    def does(expr: cst.BaseExpression) -> bool:  # a class that differentiates, as named in this file
        if type(expr) is cst.Name and expr.value in classes:
            return expr.value not in seen and differentiates(model, classes[expr.value], seen, strict)
        return (model.imports.resolve(expr) or "").startswith(GRADIENT_LIBRARIES)

    if any(does(base.value) for base in cls.bases):
        return True
    methods = [stmt for stmt in cls.body.body if isinstance(stmt, cst.FunctionDef)]
    differentiating = model.loops.has_backward if strict else regions.needs_grad  # type: ignore[attr-defined]
    return any(differentiating(m) for m in methods) or any(
        does(call.func) for m in methods for call in model.tree.descendants(m, cst.Call)
    )


def returns_differentiating(model: "FileContext", func: cst.FunctionDef) -> list[int]:
    """The elements of what `func` returns that are objects of a class of the project whose methods
    differentiate (`differentiates`, strict) (robustness' `make_and_restore_model` returns `(AttackerModel(...), checkpoint)`,
    placed and maybe wrapped in `DataParallel`): [-1] for the whole value, else the tuple's indexes
    that every `return` agrees on. A caller in another file that runs such an object needs grad on."""
    returns = [r for r in model.tree.descendants(func.body, cst.Return) if model.scope_of(r) is func]
    if not returns or any(r.value is None for r in returns):
        return []
    shapes = [r.value.elements if type(r.value) is cst.Tuple else None for r in returns]  # type: ignore[union-attr]
    if all(shape is None for shape in shapes):
        return [-1] if all(_made_differentiating(model, r.value, r, set()) for r in returns) else []  # type: ignore[arg-type]
    if any(shape is None for shape in shapes) or len({len(shape) for shape in shapes}) != 1:  # type: ignore[arg-type]
        return []
    return [
        i
        for i in range(len(shapes[0]))  # type: ignore[arg-type]
        if all(_made_differentiating(model, shape[i].value, r, set()) for shape, r in zip(shapes, returns))  # type: ignore[index]
    ]


def _made_differentiating(model: "FileContext", expr: cst.BaseExpression, at: cst.CSTNode, seen: set[int]) -> bool:
    """Is every value `expr` may hold at `at` an object of a class of the project that differentiates,
    also once placed (`model.cuda()`) or wrapped in `DataParallel`, whose call runs it?"""
    if id(expr) in seen:
        return True  # `model = model.cuda()`: the other bindings decide
    seen.add(id(expr))
    if type(expr) is cst.Name:
        values = model.provenance.held_values(expr, at)  # type: ignore[attr-defined]
        return bool(values) and all(_made_differentiating(model, v, v, seen) for v in values)
    if type(expr) is not cst.Call:
        return False
    func = expr.func
    if type(func) is cst.Attribute and func.attr.value in MODULE_SELF_RETURNING:
        return _made_differentiating(model, func.value, at, seen)
    if (model.imports.resolve(func) or "").endswith("DataParallel") and expr.args:
        return _made_differentiating(model, expr.args[0].value, at, seen)
    cls = model.calls.classes.get(func.value) if type(func) is cst.Name else None
    if cls is not None:
        return differentiates(model, cls, strict=True)
    return bool((model.project.constructed(expr) or {}).get("takes_gradients"))  # a class of another file
