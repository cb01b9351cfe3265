"""Which part of an assigned value a name receives."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

if TYPE_CHECKING:
    from memlint.analysis.syntax.scopes import Binding


def unpacked(binding: "Binding") -> tuple[cst.BaseExpression | None, int | None]:
    """The value a binding gives its name: for `a, b = f(x)`, (`f(x)`, the index of the name);
    for `a, b = x, y`, (the matching element, None); else (the value, None)."""
    node, value = binding.node, binding.value
    target = node.targets[0].target if type(node) is cst.Assign and len(node.targets) == 1 else None
    if type(target) not in (cst.Tuple, cst.List) or any(type(e) is cst.StarredElement for e in target.elements):
        return value, None
    index = next(
        (i for i, e in enumerate(target.elements) if type(e.value) is cst.Name and e.value.value == binding.name), None
    )
    if index is None:
        return value, None
    if type(value) in (cst.Tuple, cst.List) and len(value.elements) == len(target.elements):
        if not any(type(e) is cst.StarredElement for e in value.elements):
            return value.elements[index].value, None
    return value, index
