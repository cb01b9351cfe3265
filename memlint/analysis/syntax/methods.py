"""Methods of a class called on `self`, and what their parameters default to.

`self.gradient_checkpointing_enable()` inside a class that defines that method
runs the class's own code: what the call leaves out is whatever the method
defaults it to, either in its signature or in the usual
`if kwargs is None: kwargs = {...}` at the top of its body.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from memlint.analysis.syntax.expressions import code

if TYPE_CHECKING:
    from memlint.analysis.syntax.scopes import Scopes


def own_method(scopes: "Scopes", call: cst.Call) -> cst.FunctionDef | None:
    """The method `self.name(...)` runs when the class around the call defines `name` itself."""
    func = call.func
    if not (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "self"):
        return None
    caller = scopes.scope_of(call)
    cls = scopes.enclosing_class(caller) if isinstance(caller, cst.FunctionDef) else None
    if cls is None:
        return None
    for stmt in cls.body.body:
        if isinstance(stmt, cst.FunctionDef) and stmt.name.value == func.attr.value:
            return stmt
    return None


def effective_default(func: cst.FunctionDef, name: str) -> cst.BaseExpression | None:
    """What parameter `name` holds when the caller does not pass it: its default,
    or, for a `None` default, the value the top of the body assigns when it is None."""
    params = func.params
    param = next((p for p in [*params.posonly_params, *params.params, *params.kwonly_params] if p.name.value == name), None)
    if param is None or param.default is None:
        return None
    if code(param.default) != "None":
        return param.default
    for stmt in func.body.body if isinstance(func.body, cst.IndentedBlock) else ():
        if isinstance(stmt, cst.If) and code(stmt.test) in (f"{name} is None", f"not {name}"):
            for line in stmt.body.body if isinstance(stmt.body, cst.IndentedBlock) else ():
                for small in line.body if isinstance(line, cst.SimpleStatementLine) else ():
                    if (
                        isinstance(small, cst.Assign)
                        and len(small.targets) == 1
                        and code(small.targets[0].target) == name
                    ):
                        return small.value
    return param.default
