"""Where the outputs of a function's model runs go: does any of them leave the function with its history?

A function that never differentiates and whose model outputs never leave it with their history (they end
as numbers or detached copies, are dropped, go into other model runs or torch functions, or are kept in
the function's own variables and containers, which die with it) records graphs that nothing can ever
differentiate: it evaluates, whatever its name (a calibration pass that runs every layer over cached
inputs, a scorer). An output handed to any other function, returned, yielded, stored on an object or
read by a nested function may be differentiated there, so it leaves the function.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from memlint.analysis.flow.bindings import unpacked
from memlint.analysis.library import (
    BUILTINS, CONCATENATIONS, CONTAINER_STORES, FRESH_CONTAINERS, MAPPING_STORES, TENSOR_METHODS,
)
from memlint.analysis.syntax.expressions import root_name, target_names

if TYPE_CHECKING:
    from memlint.analysis.context import FileContext

# a tensor's fields that carry no history (`out.data`, its shape), and the methods that ask for its graph
_NO_HISTORY_FIELDS = frozenset({"data", "shape", "dtype", "device", "ndim", "is_cuda", "requires_grad"})
_GRAPH_METHODS = frozenset({"backward", "register_hook", "retain_grad", "requires_grad_", "register_post_accumulate_grad_hook"})
# tensor methods whose result has no history (besides the library table's "cut" ones): integer results
_INTEGRAL_METHODS = frozenset({"argmax", "argmin", "argsort", "size", "dim", "numel", "eq", "ne", "nonzero"})
_HARMLESS_BUILTINS = frozenset({"print", "isinstance", "len", "type", "id", "repr", "hasattr"})
_STORES = frozenset(CONTAINER_STORES) | frozenset(MAPPING_STORES)
_LITERAL_CONTAINERS = (cst.List, cst.Dict, cst.Set, cst.ListComp, cst.DictComp, cst.SetComp)
_FRESH_DEPTH = 3
_MAX_NAMES = 24  # names followed from the outputs before giving up (an answer of "it may leave")


def is_read(model: "FileContext", name: cst.Name) -> bool:
    """A read of a variable: not a binding target, an attribute's name nor an argument's keyword."""
    tree = model.tree
    parent = tree.parent_of(name)
    node: cst.CSTNode = name
    while type(parent) in (cst.Element, cst.StarredElement, cst.Tuple, cst.List):
        node, parent = parent, tree.parent_of(parent)  # an element of an unpacking target, or of a literal
    if node is not name and (
        type(parent) is cst.AssignTarget or (type(parent) in (cst.For, cst.CompFor) and parent.target is node)
    ):
        return False  # `posterior, state = ...`: bound, not read
    parent = tree.parent_of(name)
    kind = type(parent)
    if kind is cst.AssignTarget or kind is cst.Param:
        return False
    if kind is cst.Attribute:
        return parent.value is name
    if kind is cst.Arg:
        return parent.value is name
    if kind in (cst.For, cst.CompFor) and parent.target is name:
        return False
    return True


class OutputFlow:
    def __init__(self, model: "FileContext") -> None:
        self.model = model

    def stays_inside(self, func: cst.FunctionDef, runs: list[cst.Call]) -> bool:
        """Does the history of every output of `runs` (model runs directly in `func`) end inside `func`:
        as numbers or detached copies, dropped, compared, in other model runs, or kept in variables and
        containers of `func` whose every read does the same? Followed through torch functions and tensor
        methods, which pass it on."""
        tainted: set[str] = set()
        pending: list[cst.CSTNode] = list(runs)
        while pending:
            bound = self._ends(pending.pop(), func)
            if bound is None:
                return False
            new = bound - tainted
            if not new:
                continue
            tainted |= new
            if len(tainted) > _MAX_NAMES:
                return False
            for name in self.model.tree.descendants(func, cst.Name):
                if name.value in new and is_read(self.model, name):
                    if self.model.scope_of(name) is not func and self._ends(name, func) != set():
                        return False  # read by a nested function, which may run anywhere, for more than a store
                    pending.append(name)
        return True

    def _ends(self, expr: cst.CSTNode, func: cst.FunctionDef) -> set[str] | None:
        """Follow a value with history from `expr` up its expression: the local names it is bound or
        stored into, where it ends inside `func`; None where it may leave."""
        model = self.model
        tree = model.tree
        node = expr
        while True:
            parent = tree.parent_of(node)
            kind = type(parent)
            if kind is cst.Subscript and parent.value is node:
                node = parent
            elif kind is cst.SubscriptElement or kind is cst.Index or kind is cst.Slice:
                return set()  # an index
            elif kind is cst.Attribute and parent.value is node:
                outer = tree.parent_of(parent)
                attr = parent.attr.value
                if type(outer) is not cst.Call or outer.func is not parent:
                    if attr in _NO_HISTORY_FIELDS:
                        return set()
                    node = parent  # a field (`out.logits`)
                elif attr in _GRAPH_METHODS:
                    return None
                elif (attr in TENSOR_METHODS and TENSOR_METHODS[attr].history == "cut") or attr in _INTEGRAL_METHODS:
                    return set()
                elif attr in _STORES:
                    return set()  # a container of outputs, growing: followed through its own name
                else:
                    node = outer  # a tensor method's result carries the history on
            elif kind is cst.Arg and parent.value is node:
                call = tree.parent_of(parent)
                if model.provenance.is_module_call(call) or model.module_facts.runs_module(call):  # type: ignore[arg-type]
                    return set()  # into another model run, whose output is followed as its own
                func_expr = call.func  # type: ignore[attr-defined]
                if type(func_expr) is cst.Attribute and func_expr.attr.value in _STORES:
                    return self._local_root(func_expr.value, func)
                name = model.imports.resolve(func_expr) or ""
                if (name in BUILTINS and BUILTINS[name].history == "cut") or name in _HARMLESS_BUILTINS:
                    return set()
                if not (name in CONCATENATIONS or (name.startswith("torch.") and not name.startswith("torch.autograd"))):
                    return None  # handed to a function that may keep or differentiate it
                node = call
            elif kind in (cst.BinaryOperation, cst.UnaryOperation, cst.BooleanOperation, cst.Element, cst.Tuple, cst.List):
                node = parent
            elif kind is cst.IfExp:
                if parent.test is node:
                    return set()
                node = parent
            elif kind in (cst.Comparison, cst.ComparisonTarget, cst.Expr, cst.If, cst.While, cst.FormattedStringExpression):
                return set()  # compared, dropped, tested, formatted
            elif kind in (cst.For, cst.CompFor) and parent.iter is node:
                return set(target_names(parent.target))  # (a comprehension's names are read in the function's scope)
            elif kind is cst.Assign and parent.value is node:
                return self._bound(parent.targets and [t.target for t in parent.targets], func)
            elif kind in (cst.AugAssign, cst.AnnAssign) and parent.value is node:
                return self._bound([parent.target], func)
            else:
                return None  # returned, yielded, or used in a way not followed

    def _bound(self, targets: list[cst.BaseExpression], func: cst.FunctionDef) -> set[str] | None:
        """The local names that assigning a value with history to `targets` binds or stores it in; None
        where one is no local (`self.cache = out`, a parameter's field)."""
        found: set[str] = set()
        for target in targets:
            if type(target) in (cst.Name, cst.Tuple, cst.List):
                found.update(target_names(target))
                continue
            root = self._local_root(target, func)
            if root is None:
                return None
            found |= root
        return found

    def _local_root(self, expr: cst.BaseExpression, func: cst.FunctionDef) -> set[str] | None:
        """`{"outputs"}` for `outputs[k]` or `outputs.append` where `outputs` is a variable `func` binds
        itself (no parameter, no global); None otherwise."""
        root = root_name(expr)
        return {root} if root is not None and self._fresh(root, func, 0) else None

    def _fresh(self, name: str, func: cst.FunctionDef, depth: int) -> bool:
        """Is every value `func` binds `name` to a container it makes itself (`[]`, `{}`, `dict()`, a
        comprehension), or a name of the same kind (`inputs, outputs = outputs, []`)? Not a parameter."""
        model = self.model
        bindings = model.bindings(func, name)
        if name in model.params(func) or not bindings or depth > _FRESH_DEPTH:
            return False
        for binding in bindings:
            value, index = unpacked(binding)
            if index is not None or value is None:
                return False
            if type(value) is cst.Name:
                if not self._fresh(value.value, func, depth + 1):
                    return False
            elif type(value) is cst.Call:
                empty = FRESH_CONTAINERS.get(model.imports.resolve(value.func) or "")
                if empty is None or sum(a.keyword is None for a in value.args) > empty:
                    return False
            elif type(value) not in _LITERAL_CONTAINERS:
                return False
        return True
