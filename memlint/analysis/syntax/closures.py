"""Closures: inner functions that a factory returns, followed to where they run.

`def make_eval(model): def eval_wrapper(x): return model(x); return eval_wrapper`
hands `eval_wrapper` to whoever calls `make_eval`. Calling `fn(x)` after
`fn = make_eval(model)` (or `fn = self.make_step()`) runs the closure, and so
does calling a parameter that every call site of its function passes such a
value. With every use of the factory's results known, the closure's call
sites are known too, so grad mode can ask whether they all run without grad.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

import libcst as cst

if TYPE_CHECKING:
    from memlint.analysis.syntax.scopes import Scope, Scopes


class Closures:
    def __init__(self, scopes: "Scopes") -> None:
        self.scopes = scopes

    @cached_property
    def returned(self) -> dict[int, list[cst.FunctionDef]]:
        """factory id -> the inner functions it returns by name (`return inner`)."""
        scopes = self.scopes
        table: dict[int, list[cst.FunctionDef]] = {}
        for ret in scopes.tree.by_type.get(cst.Return, ()):
            if type(ret.value) is not cst.Name:  # exact types: no ABC instance checks
                continue
            factory = scopes.scope_of(ret)
            if type(factory) is not cst.FunctionDef:
                continue
            for inner in scopes.functions.get(ret.value.value, ()):
                if scopes.scope_of(inner) is factory and inner not in table.get(id(factory), ()):
                    table.setdefault(id(factory), []).append(inner)
        return table

    @cached_property
    def _named_sites(self) -> dict[int, list[cst.Call]]:
        """function id -> calls that name it (`f(...)`, `self.f(...)`)."""
        sites: dict[int, list[cst.Call]] = {}
        for call in self.scopes.tree.by_type.get(cst.Call, ()):
            for func in self.scopes.named_callees(call):
                sites.setdefault(id(func), []).append(call)
        return sites

    def callees(self, call: cst.Call) -> list[cst.FunctionDef]:
        """The closures `call` may run: `fn(...)` where `fn` holds a factory's result."""
        if not self.returned or type(call.func) is not cst.Name:  # exact type: no ABC instance check
            return []
        return self._closures_of(call.func.value, self.scopes.scope_of(call), frozenset())

    def _closures_of(self, name: str, scope: "Scope", guard: frozenset) -> list[cst.FunctionDef]:
        key = (id(scope), name)
        if key in guard:
            return []
        guard = guard | {key}
        found: list[cst.FunctionDef] = []
        for binding in self.scopes.bindings(scope, name):
            if isinstance(binding.value, cst.Call):
                for factory in self.scopes.named_callees(binding.value):
                    found += self.returned.get(id(factory), [])
        if isinstance(scope, cst.FunctionDef) and name in self.scopes.params(scope):
            for site in self._named_sites.get(id(scope), ()):
                arg = _argument_for(scope, site, name)
                if arg is not None and isinstance(arg.value, cst.Name):
                    found += self._closures_of(arg.value.value, self.scopes.scope_of(site), guard)
        return found

    def tracked(self, inner: cst.FunctionDef) -> bool:
        """Is every value of the closure `inner` known to be only called (so its call
        sites are all its callers)? Each result of its factory must be assigned to a
        name that is only called, or passed to a parameter of this file that is only called."""
        factory = self.scopes.scope_of(inner)
        if not isinstance(factory, cst.FunctionDef):
            return False
        sites = self._named_sites.get(id(factory), [])
        return bool(sites) and all(self._result_only_called(site) for site in sites)

    def _result_only_called(self, site: cst.Call) -> bool:
        tree = self.scopes.tree
        assign = tree.parent_of(site)
        if not (
            isinstance(assign, cst.Assign)
            and len(assign.targets) == 1
            and isinstance(assign.targets[0].target, cst.Name)
        ):
            return False
        return self._only_called(assign.targets[0].target.value, self.scopes.scope_of(site), assign, depth=2)

    def _only_called(self, name: str, scope: "Scope", binding: cst.CSTNode | None, depth: int) -> bool:
        """Is every read of `name` in `scope` a call of it, or (depth allowing) an
        argument to a function of this file whose parameter is only called?"""
        tree = self.scopes.tree
        region = scope if isinstance(scope, cst.FunctionDef) else self.scopes.module
        for node in tree.descendants(region, cst.Name):
            if node.value != name or self.scopes.scope_of(node) is not scope:
                continue
            if binding is not None and tree.contains(binding, node) and _is_target(binding, node):
                continue
            parent = tree.parent_of(node)
            if isinstance(parent, cst.Call) and parent.func is node:
                continue
            if isinstance(parent, cst.Param) or (isinstance(parent, cst.FunctionDef) and parent.name is node):
                continue
            if isinstance(parent, cst.Arg) and depth > 0 and self._passed_to_called_parameter(parent, depth - 1):
                continue
            return False
        return True

    def _passed_to_called_parameter(self, arg: cst.Arg, depth: int) -> bool:
        call = self.scopes.tree.parent_of(arg)
        if not isinstance(call, cst.Call):
            return False
        callees = self.scopes.named_callees(call)
        if not callees:
            return False
        for func in callees:
            param = _parameter_for(func, call, arg)
            if param is None or not self._only_called(param, func, None, depth):
                return False
        return True


def _is_target(binding: cst.CSTNode, node: cst.Name) -> bool:
    return isinstance(binding, cst.Assign) and any(t.target is node for t in binding.targets)


def _positional(func: cst.FunctionDef, call: cst.Call) -> list[str]:
    """`func`'s positional parameter names as `call` fills them (`self` skipped for `self.f(...)`)."""
    names = [p.name.value for p in [*func.params.posonly_params, *func.params.params]]
    if isinstance(call.func, cst.Attribute) and names and names[0] in ("self", "cls"):
        names = names[1:]
    return names


def _argument_for(func: cst.FunctionDef, call: cst.Call, name: str) -> cst.Arg | None:
    """The argument of `call` that parameter `name` of `func` receives."""
    positional = _positional(func, call)
    for index, arg in enumerate(call.args):
        if arg.star:
            return None
        if arg.keyword is not None:
            if arg.keyword.value == name:
                return arg
        elif index < len(positional) and positional[index] == name:
            return arg
    return None


def _parameter_for(func: cst.FunctionDef, call: cst.Call, arg: cst.Arg) -> str | None:
    """The parameter of `func` that `arg` of `call` fills."""
    if arg.star:
        return None
    if arg.keyword is not None:
        return arg.keyword.value
    positional = _positional(func, call)
    index = list(call.args).index(arg)
    return positional[index] if index < len(positional) else None
