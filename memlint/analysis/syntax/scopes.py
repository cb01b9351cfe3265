"""Scopes, bindings and the functions a call names in one file: the structural facts every analysis shares.

The lowest layer of the semantic model above the tree and the imports: nothing
here knows about grad mode, provenance or loops, so every analysis can build on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import libcst as cst

from memlint.analysis.syntax.expressions import target_names
from memlint.analysis.syntax.tree import Tree

Scope = cst.FunctionDef | cst.Module
Loop = cst.For | cst.While


@dataclass(frozen=True)
class Binding:
    """`name` is bound at `node`; `value` is what was assigned (None: unknown)."""

    name: str
    node: cst.CSTNode
    value: cst.BaseExpression | None


class Scopes:
    def __init__(self, module: cst.Module, tree: Tree) -> None:
        self.module = module
        self.tree = tree
        # id(call) -> (the call, its named callees): 97k questions about 18k calls on the benchmark
        # corpus. The call is kept so that its id is not reused (a call built for a question, then freed).
        self._named_callees: dict[int, tuple[cst.Call, list[cst.FunctionDef]]] = {}
        self._scopes: dict[int, Scope] = {}  # id(node of the tree) -> its scope: 146k questions, 38k nodes

    # -- scopes --------------------------------------------------------------
    def scope_of(self, node: cst.CSTNode) -> Scope:
        known = self._scopes.get(id(node))  # a node of the tree: alive, so its id is its own
        if known is not None:
            return known
        # Up the tree's parent indexes directly: this runs for most nodes the rules look at.
        tree = self.tree
        index = tree.order.get(id(node))
        if index is None:  # not of this module
            return self.module
        scope: Scope = self.module
        nodes, up = tree.nodes, tree.up
        index = up[index]
        while index > 0:  # 0: the module
            current = nodes[index]
            if current.__class__ is cst.FunctionDef:  # exact type: LibCST's node classes have no subclasses
                scope = current
                break
            index = up[index]
        self._scopes[id(node)] = scope
        return scope

    def enclosing_class(self, func: cst.FunctionDef) -> cst.ClassDef | None:
        parent = self.tree.parent_of(func)
        block = self.tree.parent_of(parent) if type(parent) is cst.IndentedBlock else None
        return block if type(block) is cst.ClassDef else None

    def enclosing_loops(self, node: cst.CSTNode) -> list[Loop]:
        """Loops around `node` whose body runs it, innermost first, within its function."""
        loops: list[Loop] = []
        tree = self.tree
        index = tree.order.get(id(node))
        if index is None:
            return loops
        nodes, up = tree.nodes, tree.up
        child = node
        index = up[index]
        while index >= 0:
            anc = nodes[index]
            kind = anc.__class__  # exact types: LibCST's node classes have no subclasses
            if kind is cst.FunctionDef or kind is cst.Lambda or kind is cst.ClassDef:
                break
            if (kind is cst.For or kind is cst.While) and child is anc.body:
                loops.append(anc)
            child = anc
            index = up[index]
        return loops

    # -- bindings ------------------------------------------------------------
    @cached_property
    def _bindings(self) -> dict[int, dict[str, list[Binding]]]:
        """scope id -> name -> bindings in source order."""
        table: dict[int, dict[str, list[Binding]]] = {}
        by_type = self.tree.by_type

        def add(node: cst.CSTNode, target: cst.BaseExpression, value: cst.BaseExpression | None) -> None:
            scope = table.setdefault(id(self.scope_of(node)), {})
            names = target_names(target)
            for name in names:
                # Unpacking binds each name to a part of the value; keep the whole
                # value (conservative for "may carry history") unless it is a literal tuple.
                scope.setdefault(name, []).append(Binding(name, node, value))

        for node in by_type.get(cst.Assign, ()):
            for target in node.targets:
                add(node, target.target, node.value)
        for node in by_type.get(cst.AnnAssign, ()):
            if node.value is not None:
                add(node, node.target, node.value)
        for node in by_type.get(cst.AugAssign, ()):
            add(node, node.target, node.value)
        for node in by_type.get(cst.For, ()):
            add(node, node.target, node.iter)
        for node in by_type.get(cst.WithItem, ()):
            if node.asname is not None:
                add(node, node.asname.name, None)
        for node in by_type.get(cst.NamedExpr, ()):
            add(node, node.target, node.value)
        for comp in by_type.get(cst.CompFor, ()):
            add(comp, comp.target, None)
        return table

    def bindings(self, scope: Scope, name: str) -> list[Binding]:
        return self._bindings.get(id(scope), {}).get(name, [])

    def params(self, scope: Scope) -> set[str]:
        if type(scope) is not cst.FunctionDef:  # exact types: LibCST's node classes have no subclasses
            return set()
        p = scope.params
        every = [*p.posonly_params, *p.params, *p.kwonly_params]
        for star in (p.star_arg, p.star_kwarg):
            if type(star) is cst.Param:
                every.append(star)
        return {param.name.value for param in every}

    def is_bound_in(self, name: str, region: cst.CSTNode, scope: Scope) -> bool:
        return any(self.tree.contains(region, b.node) for b in self.bindings(scope, name))

    # -- functions of this file and where they are called ---------------------
    @cached_property
    def functions(self) -> dict[str, list[cst.FunctionDef]]:
        table: dict[str, list[cst.FunctionDef]] = {}
        for func in self.tree.by_type.get(cst.FunctionDef, ()):
            table.setdefault(func.name.value, []).append(func)
        return table

    def named_callees(self, call: cst.Call) -> list[cst.FunctionDef]:
        """Functions of this file a call names: `f(...)` or `self.f(...)`.

        An abstract method (its body only raises `NotImplementedError`) is not
        one: the call reaches an override, which may live in another file."""
        known = self._named_callees.get(id(call))
        if known is None:
            known = self._named_callees[id(call)] = (call, self._find_named_callees(call))
        return list(known[1])  # a copy: the caller may change it

    def _find_named_callees(self, call: cst.Call) -> list[cst.FunctionDef]:
        func = call.func
        kind = type(func)  # exact types: LibCST's node classes have no subclasses
        if kind is cst.Name:
            return [f for f in self.functions.get(func.value, ()) if self.enclosing_class(f) is None]
        if kind is cst.Attribute and type(func.value) is cst.Name and func.value.value in ("self", "cls"):
            return [
                f
                for f in self.functions.get(func.attr.value, ())
                if self.enclosing_class(f) is not None and not is_abstract(f)
            ]
        return []


def is_abstract(func: cst.FunctionDef) -> bool:
    """`def forward(self, x): raise NotImplementedError` (after an optional docstring)."""
    # Exact types: LibCST's node classes have no subclasses.
    body = func.body.body if type(func.body) is cst.IndentedBlock else [func.body]
    statements = [
        small
        for stmt in body
        for small in (stmt.body if type(stmt) is cst.SimpleStatementLine else [stmt])
        if not (type(small) is cst.Expr and type(small.value) in (cst.SimpleString, cst.ConcatenatedString))
    ]
    if len(statements) != 1 or type(statements[0]) is not cst.Raise or statements[0].exc is None:
        return False
    exc = statements[0].exc
    name = exc.func if type(exc) is cst.Call else exc
    return type(name) is cst.Name and name.value == "NotImplementedError"
