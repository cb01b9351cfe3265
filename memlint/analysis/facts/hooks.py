"""Hook registrations and the handles they return: kept and removed, or lost.

`register_forward_hook(...)` and friends return a `RemovableHandle`; the hook
stays registered until `handle.remove()` runs (or the `with` block the handle
opened ends), whether or not the handle itself is still referenced.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

import libcst as cst

from memlint.analysis.library import CONTAINER_STORES
from memlint.analysis.syntax.expressions import callee_name, method_name, names_in, root_name, target_names
from memlint.analysis.syntax.imports import dotted

if TYPE_CHECKING:
    from memlint.analysis.model import SemanticModel

# module hooks and tensor hooks, by method name
MODULE_HOOK_METHODS = {
    "register_forward_hook",
    "register_forward_pre_hook",
    "register_full_backward_hook",
    "register_full_backward_pre_hook",
    "register_backward_hook",
}
TENSOR_HOOK_METHODS = {"register_hook", "register_post_accumulate_grad_hook"}
GLOBAL_HOOKS = {
    f"torch.nn.modules.module.register_module_{kind}"
    for kind in ("forward_hook", "forward_pre_hook", "full_backward_hook", "full_backward_pre_hook", "backward_hook")
}

_STORE_METHODS = frozenset(CONTAINER_STORES)
_NEUTRAL_METHODS = _STORE_METHODS | {"clear", "id", "__len__", "keys"}
_PASS_THROUGH_ATTRS = {"values", "items", "copy", "pop", "popitem", "popleft", "get"}
_WRAPPERS = {"list", "tuple", "reversed", "sorted", "iter", "chain", "enumerate", "zip"}
_NEUTRAL_CALLS = {"len", "isinstance", "print", "bool", "repr", "str", "id", "type"}
_REMOVER = re.compile(
    r"remove|clear|release|close|unregister|cleanup|clean_up|detach|reset|teardown|unhook", re.IGNORECASE
)
_NEUTRAL_PARENTS = (
    cst.Comparison, cst.ComparisonTarget, cst.If, cst.While, cst.UnaryOperation, cst.BooleanOperation, cst.Del,
    cst.IfExp, cst.Expr,
)

DISCARDED = "discarded"  # an expression statement: nobody can remove it
UNREMOVED = "unremoved"  # kept in a name/attribute/container that is never `.remove()`d
REMOVED_LATE = "removed-late"  # removed, but only after the loop that registers it per iteration
REMOVED = "removed"  # removed in the same step, or a `with` block
KEPT = "kept"  # returned, passed on or aliased: the caller may remove it


@dataclass(frozen=True)
class HandleFate:
    kind: str
    target: str | None = None  # where the handle was kept, as written


class Handles:
    """Answers `fate(call, region)` for hook registration calls of one file."""

    def __init__(self, model: "SemanticModel") -> None:
        self.model = model

    @cached_property
    def _uses(self) -> dict[str, list[cst.CSTNode]]:
        """dotted text -> Name/Attribute nodes that spell it (`h`, `self.handles`)."""
        table: dict[str, list[cst.CSTNode]] = {}
        by_type = self.model.tree.by_type
        for node in by_type.get(cst.Name, ()):
            table.setdefault(node.value, []).append(node)
        for node in by_type.get(cst.Attribute, ()):
            text = dotted(node)
            if text is not None:
                table.setdefault(text, []).append(node)
        return table

    def fate(self, call: cst.Call, region: cst.CSTNode) -> HandleFate:
        how, target = self._destination(call)
        if how == "discarded":
            return HandleFate(DISCARDED)
        if how == "with":
            return HandleFate(REMOVED)
        if how == "escapes" or target is None:
            return HandleFate(KEPT)
        text = dotted(target)
        if text is None:
            return HandleFate(KEPT)
        return HandleFate(self._stored_fate(call, target, text, region), text)

    # -- where the handle goes ---------------------------------------------------
    def _destination(self, call: cst.Call) -> tuple[str, cst.BaseExpression | None]:
        tree = self.model.tree
        node: cst.CSTNode = call
        while True:
            parent = tree.parent_of(node)
            if isinstance(parent, cst.Expr):
                return "discarded", None
            if isinstance(parent, cst.WithItem):
                return "with", None
            if isinstance(parent, (cst.Element, cst.StarredElement)) or (
                isinstance(parent, cst.DictElement) and parent.value is node
            ):
                node = tree.parent_of(parent)
                continue
            if isinstance(parent, (cst.ListComp, cst.SetComp, cst.GeneratorExp)) and parent.elt is node:
                node = parent
                continue
            if isinstance(parent, cst.DictComp) and parent.value is node:
                node = parent
                continue
            if isinstance(parent, cst.Arg):
                outer = tree.parent_of(parent)
                if isinstance(outer, cst.Call):
                    if method_name(outer) in _STORE_METHODS:
                        return "stored", outer.func.value
                    if callee_name(outer) in _WRAPPERS:
                        node = outer
                        continue
                return "escapes", None
            if isinstance(parent, cst.Assign):
                if len(parent.targets) != 1:
                    return "escapes", None
                return "stored", _slot_owner(parent.targets[0].target)
            if isinstance(parent, (cst.AnnAssign, cst.AugAssign, cst.NamedExpr)):
                return "stored", _slot_owner(parent.target)
            return "escapes", None

    # -- whether it is removed -----------------------------------------------------
    def _stored_fate(
        self, call: cst.Call, target: cst.BaseExpression, text: str, region: cst.CSTNode, depth: int = 0
    ) -> str:
        model = self.model
        tree = model.tree
        if isinstance(target, cst.Name):
            area: cst.CSTNode = model.scope_of(call)
        else:
            area = model.module  # an attribute: removed by another method, another function
        removals: list[cst.CSTNode] = []
        late = escaped = False
        for use in self._uses.get(text, ()):
            if use is target or not tree.contains(area, use) or self._is_store_target(use):
                continue
            verdict = self._use(use)
            if isinstance(verdict, tuple):  # put into a container: what becomes of that?
                container = verdict[1]
                inner = dotted(container)
                if inner is None or depth >= 2:
                    escaped = True
                    continue
                verdict = self._stored_fate(call, container, inner, region, depth + 1)
                if verdict == REMOVED_LATE:
                    late = True
                    continue
            if verdict == REMOVED:
                removals.append(use)
            elif verdict == KEPT:
                escaped = True
        if removals:
            if not isinstance(region, (cst.For, cst.While)) or any(self._in_step(r, region) for r in removals):
                return REMOVED
            return REMOVED_LATE
        if late:
            return REMOVED_LATE
        return KEPT if escaped else UNREMOVED

    def _in_step(self, node: cst.CSTNode, region: cst.CSTNode) -> bool:
        """Does `node` run as part of one iteration of `region` (inside it, or in a
        function of this file that it calls)?"""
        tree = self.model.tree
        if tree.contains(region, node):
            return True
        callees = {
            id(f) for c in tree.descendants(region, cst.Call) for f in self.model.local_callees(c)
        }
        return any(isinstance(a, cst.FunctionDef) and id(a) in callees for a in tree.ancestors(node))

    def _is_store_target(self, node: cst.CSTNode) -> bool:
        """`h` in `h = ...`, `self.h = ...`, `for h in ...` (a rebinding, not a read)."""
        parent = self.model.tree.parent_of(node)
        if isinstance(parent, cst.AssignTarget) or (
            isinstance(parent, (cst.AnnAssign, cst.AugAssign, cst.NamedExpr)) and parent.target is node
        ):
            return True
        if isinstance(parent, (cst.For, cst.CompFor)) and parent.target is node:
            return True
        if isinstance(parent, cst.Attribute) and parent.attr is node:
            return True  # the `h` of `x.h`: counted under `x.h`
        if isinstance(parent, cst.Arg) and parent.keyword is node:
            return True
        return isinstance(parent, (cst.Param, cst.FunctionDef, cst.ClassDef, cst.ImportAlias, cst.AsName))

    def _use(self, use: cst.CSTNode) -> str | tuple[str, cst.BaseExpression] | None:
        """REMOVED, KEPT (passed on: may be removed elsewhere), ("into", container)
        when it is put into a container, or None (neutral)."""
        tree = self.model.tree
        current = use
        while True:
            parent = tree.parent_of(current)
            if isinstance(parent, cst.Attribute) and parent.value is current:
                attr = parent.attr.value
                if attr == "remove":
                    return REMOVED
                call = tree.parent_of(parent)
                if attr in _PASS_THROUGH_ATTRS and isinstance(call, cst.Call) and call.func is parent:
                    current = call
                    continue
                return None
            if isinstance(parent, cst.Subscript) and parent.value is current:
                current = parent
                continue
            if isinstance(parent, cst.Arg):
                call = tree.parent_of(parent)
                name = callee_name(call) if isinstance(call, cst.Call) else None
                if name in _WRAPPERS:
                    current = call
                    continue
                if isinstance(call, cst.Call) and method_name(call) in _STORE_METHODS:
                    return ("into", call.func.value) if current is use else None
                if name in _NEUTRAL_CALLS:
                    return None
                if name and _REMOVER.search(name):
                    return REMOVED
                return KEPT
            if isinstance(parent, cst.For) and parent.iter is current:
                return REMOVED if _removes(tree, parent.body, target_names(parent.target)) else None
            if isinstance(parent, cst.CompFor) and parent.iter is current:
                comp = next(a for a in tree.ancestors(parent) if not isinstance(a, cst.CompFor))
                return REMOVED if _removes(tree, comp, target_names(parent.target)) else None
            if isinstance(parent, _NEUTRAL_PARENTS):
                return None
            return KEPT


def _slot_owner(target: cst.BaseExpression) -> cst.BaseExpression:
    """`self.hooks` for `self.hooks[name]` (the container that keeps the handle)."""
    while isinstance(target, cst.Subscript):
        target = target.value
    return target


def _removes(tree, region: cst.CSTNode, names: list[str]) -> bool:
    """Does `region` call `<name>.remove()` (or `<name>[...].remove()`) for one of `names`?"""
    for attr in tree.descendants(region, cst.Attribute):
        if attr.attr.value != "remove":
            continue
        receiver = attr.value
        while isinstance(receiver, cst.Subscript):
            receiver = receiver.value
        if isinstance(receiver, cst.Name) and receiver.value in names:
            return True
    for call in tree.descendants(region, cst.Call):
        name = callee_name(call)
        if name and _REMOVER.search(name) and any(
            isinstance(a.value, cst.Name) and a.value.value in names for a in call.args
        ):
            return True
    return False


# -- across files: the project summary's part (memlint/analysis/project.py) ----------------
def exported_hook_registrations(model: "SemanticModel") -> dict[str, list[Any]]:
    """Top-level functions of this file (and classes, by their constructor) that register a module
    hook on a module they are handed (the argument, or a submodule of it) and neither remove the
    handle nor hand it back:
    name -> [the registering method, where (`helpers.py:12`)]. Each call registers one more hook
    for good; another file that calls one on every step is told so (ML008)."""
    found: dict[str, list[Any]] = {}
    handles: Handles | None = None
    for call in model.tree.by_type.get(cst.Call, ()):
        if method_name(call) not in MODULE_HOOK_METHODS or not call.args:
            continue
        func = model.scope_of(call)
        if not isinstance(func, cst.FunctionDef):
            continue
        cls = model.enclosing_class(func)
        if model.tree.parent_of(func) is model.module:
            name = func.name.value
        elif cls is not None and func.name.value == "__init__" and model.tree.parent_of(cls) is model.module:
            name = cls.name.value  # `Probe(model)`: its constructor registers the hook
        else:
            continue
        if name in found or not _on_a_parameter(model, call, func):
            continue
        handles = handles or Handles(model)
        if handles.fate(call, func).kind in (DISCARDED, UNREMOVED):
            where = f"{os.path.basename(model.path)}:{model.range_of(call).start.line}"
            found[name] = [method_name(call), where]
    return found


def _on_a_parameter(model: "SemanticModel", call: cst.Call, func: cst.FunctionDef) -> bool:
    """Is the hook registered on a module `func` is handed: `model.register_forward_hook`,
    `model.encoder.register_...`, or a loop variable over `model.modules()` (`named_modules`,
    `children`, ...)?"""
    params = model.params(func) - {"self", "cls"}
    receiver = call.func.value if isinstance(call.func, cst.Attribute) else None
    root = root_name(receiver) if receiver is not None else None
    if root is None:
        return False
    if root in params:
        return True
    for loop in model.enclosing_loops(call):
        if isinstance(loop, cst.For) and root in target_names(loop.target) and set(names_in(loop.iter)) & params:
            return True
    return False


def step_calls(model: "SemanticModel", imported_roots: set[str]) -> list[list[Any]]:
    """Calls of imported functions, as statements of their own handed a module, that run on every
    step (per_step.step_context): whether the callee registers a hook is the other file's to say.
    Each: [callee as written, row, column, end row, end column, the step in words, suppressed]."""
    from memlint.analysis.regions.guards import runs_sometimes
    from memlint.analysis.regions.model_runs import hands_a_module
    from memlint.analysis.regions.per_step import step_context
    from memlint.suppression import is_suppressed

    found: list[list[Any]] = []
    # (bound or not: an object whose constructor registers the hook keeps no handle either way)
    for statement, call, name in model.calls.imported_statement_calls(imported_roots, assigned=True):
        if not hands_a_module(model, call):
            continue  # (a helper that hooks a module is handed it)
        context = step_context(model, call, lambda n, region: runs_sometimes(model, n, region))
        if context is None:
            continue
        span = model.range_of(call)
        suppressed = is_suppressed([model.line_text(statement)], 1, 1, "ML008", "hook-in-loop")
        found.append(
            [name, span.start.line, span.start.column + 1, span.end.line, span.end.column + 1, context.where, suppressed]
        )
    return found
