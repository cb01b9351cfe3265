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
        # (id(class), method name) -> (the class, what `self.name(...)` may run in its methods)
        self._methods_of: dict[tuple[int, str], tuple[cst.ClassDef, list[cst.FunctionDef]]] = {}
        self._families: dict[int, tuple[cst.ClassDef, frozenset[int]]] = {}  # id(class) -> (it, class_family)
        self._resolved: dict[int, tuple[cst.ClassDef, dict[str, cst.FunctionDef | None]]] = {}  # `resolved_methods`

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
        """The class whose body defines `func` (a method), else None."""
        return self._method_classes.get(id(func))

    def exported_name(self, func: cst.FunctionDef) -> str | None:
        """How other files name `func`: a top-level function, or `Class.method` of a top-level class
        (None: a nested function, or a method of a nested class)."""
        cls = self.enclosing_class(func)
        if cls is None:
            return func.name.value if self.tree.parent_of(func) is self.module else None
        return f"{cls.name.value}.{func.name.value}" if self.tree.parent_of(cls) is self.module else None

    @cached_property
    def _method_classes(self) -> dict[int, cst.ClassDef]:
        """id(method) -> its class, for every statement of a class's indented body (asked 87k
        times of 5k functions on the benchmark corpus)."""
        return {
            id(statement): cls
            for cls in self.tree.by_type.get(cst.ClassDef, ())
            if type(cls.body) is cst.IndentedBlock
            for statement in cls.body.body
        }

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

        def add_loop(node: cst.For | cst.CompFor) -> None:  # a loop's target: bound to what it iterates
            parts = _iterated_parts(node)
            if parts is None:
                add(node, node.target, node.iter)
                return
            for element, iterable in parts:
                add(node, element, iterable)

        for node in by_type.get(cst.Assign, ()):
            for target in node.targets:
                add(node, target.target, node.value)
        for node in by_type.get(cst.AnnAssign, ()):
            if node.value is not None:
                add(node, node.target, node.value)
        for node in by_type.get(cst.AugAssign, ()):
            add(node, node.target, node.value)
        for node in by_type.get(cst.For, ()):
            add_loop(node)
        for node in by_type.get(cst.WithItem, ()):
            if node.asname is not None:
                add(node, node.asname.name, None)
        for node in by_type.get(cst.NamedExpr, ()):
            add(node, node.target, node.value)
        for comp in by_type.get(cst.CompFor, ()):  # a comprehension's target, as a loop's
            add_loop(comp)
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
            known = self._named_callees[id(call)] = (call, self.functions_named(call.func, call))
        return list(known[1])  # a copy: the caller may change it

    def functions_named(self, func: cst.BaseExpression, at: cst.CSTNode) -> list[cst.FunctionDef]:
        """Functions of this file that `func`, written at `at`, names: `f` or `self.f` (a call's
        callee, or a callable handed on as a value: `map_batches(fun=self.forward_batch)`)."""
        kind = type(func)  # exact types: LibCST's node classes have no subclasses
        if kind is cst.Name:
            return [f for f in self.functions.get(func.value, ()) if self.enclosing_class(f) is None]
        if kind is cst.Attribute and type(func.value) is cst.Name and func.value.value in ("self", "cls"):
            cls = self.method_class(at)
            if cls is not None:
                return self.methods_of(cls, func.attr.value)
            return [
                f
                for f in self.functions.get(func.attr.value, ())
                if self.enclosing_class(f) is not None and not is_abstract(f)
            ]
        return []

    # -- classes of this file ------------------------------------------------
    def method_class(self, node: cst.CSTNode) -> cst.ClassDef | None:
        """The class whose method `node` is in (directly, or in a function nested in the method, which
        sees the method's `self`)."""
        scope = self.scope_of(node)
        while type(scope) is cst.FunctionDef:
            cls = self.enclosing_class(scope)
            if cls is not None:
                return cls
            scope = self.scope_of(scope)
        return None

    def methods_of(self, cls: cst.ClassDef, name: str) -> list[cst.FunctionDef]:
        """The methods `self.name(...)` may run in a method of `cls`, as far as this file says: the one
        each of `cls` and its subclasses of this file inherits or defines (its bases of this file in
        method resolution order). A method of the same name in an unrelated class of the file is not
        one: `self` is never an instance of that class. An abstract method is not one either (the call
        reaches an override, which may live in another file)."""
        key = (id(cls), name)
        known = self._methods_of.get(key)
        if known is not None:
            return list(known[1])
        found: list[cst.FunctionDef] = []
        for klass in [cls, *self._subclasses(cls)]:
            method = self._resolved_method(klass, name)
            if method is not None and method not in found:
                found.append(method)
        self._methods_of[key] = (cls, found)
        return list(found)

    def self_family(self, node: cst.CSTNode) -> frozenset[int] | None:
        """id() of every class of this file whose code may see the same `self` as `node`'s method
        (`class_family`); None where `node` is in no method (`self` is then unknown)."""
        cls = self.method_class(node)
        return None if cls is None else self.class_family(cls)

    def same_self(self, node: cst.CSTNode, other: cst.CSTNode) -> bool:
        """May `self` at `other` be the object that `self` is at `node` (both in methods of one class
        family, or either outside any method)?"""
        family = self.self_family(node)
        cls = self.method_class(other)
        return family is None or cls is None or id(cls) in family

    def class_family(self, cls: cst.ClassDef) -> frozenset[int]:
        """id() of the classes of this file whose methods may run on an instance of `cls` or of a
        subclass of it: those classes and each one's bases of this file. `self.model` set in one of
        them is the `self.model` the others read; in an unrelated class of the file it is another
        object's attribute, whatever its name."""
        known = self._families.get(id(cls))
        if known is not None:
            return known[1]
        found: set[int] = set()
        for klass in [cls, *self._subclasses(cls)]:
            pending = [klass]
            while pending:
                current = pending.pop()
                if id(current) not in found:
                    found.add(id(current))
                    pending += self._file_bases(current)
        family = frozenset(found)
        self._families[id(cls)] = (cls, family)
        return family

    def _resolved_method(self, cls: cst.ClassDef, name: str) -> cst.FunctionDef | None:
        return self.resolved_methods(cls).get(name)

    def resolved_methods(self, cls: cst.ClassDef) -> dict[str, cst.FunctionDef | None]:
        """The methods an object of `cls` has, by name, as far as this file says: the first definition
        of each name in `cls` and its bases of this file (depth first, left to right: the method
        resolution order of the usual single and mixin hierarchies); None for an abstract one (the
        call reaches an override, which may live in another file)."""
        known = self._resolved.get(id(cls))
        if known is not None:
            return known[1]
        found: dict[str, cst.FunctionDef | None] = {}
        seen: set[int] = set()
        pending = [cls]
        while pending:
            klass = pending.pop(0)
            if id(klass) in seen:
                continue
            seen.add(id(klass))
            for stmt in klass.body.body if type(klass.body) is cst.IndentedBlock else ():
                if type(stmt) is cst.FunctionDef and stmt.name.value not in found:
                    found[stmt.name.value] = None if is_abstract(stmt) else stmt
            pending[:0] = self._file_bases(klass)
        self._resolved[id(cls)] = (cls, found)
        return found

    def _file_bases(self, cls: cst.ClassDef) -> list[cst.ClassDef]:
        """The bases of `cls` that are classes of this file (by name; every class of that name)."""
        classes = self._class_table
        return [
            base
            for arg in cls.bases
            if arg.keyword is None and type(arg.value) is cst.Name
            for base in classes.get(arg.value.value, ())
            if base is not cls
        ]

    def _subclasses(self, cls: cst.ClassDef) -> list[cst.ClassDef]:
        """The classes of this file that derive from `cls`, directly or not."""
        found: list[cst.ClassDef] = []
        pending = [cls]
        while pending:
            klass = pending.pop()
            for sub in self._derived.get(id(klass), ()):
                if sub is not cls and sub not in found:
                    found.append(sub)
                    pending.append(sub)
        return found

    def classes_named(self, name: str) -> list[cst.ClassDef]:
        """The classes of this file named `name`."""
        return list(self._class_table.get(name, ()))

    @cached_property
    def _class_table(self) -> dict[str, list[cst.ClassDef]]:
        table: dict[str, list[cst.ClassDef]] = {}
        for cls in self.tree.by_type.get(cst.ClassDef, ()):
            table.setdefault(cls.name.value, []).append(cls)
        return table

    @cached_property
    def _derived(self) -> dict[int, list[cst.ClassDef]]:
        """id(class) -> the classes of this file that name it as a base."""
        table: dict[int, list[cst.ClassDef]] = {}
        for cls in self.tree.by_type.get(cst.ClassDef, ()):
            for base in self._file_bases(cls):
                table.setdefault(id(base), []).append(cls)
        return table


def exits(branch: cst.If) -> bool:
    """Does the body of `branch` end by leaving its function (`return`, `raise`), so that the statements
    after the `if` run only where its test is false?"""
    body = branch.body.body if isinstance(branch.body, cst.IndentedBlock) else [branch.body]
    last = body[-1] if body else None
    smalls = last.body if isinstance(last, cst.SimpleStatementLine) else [last]
    return any(isinstance(s, (cst.Return, cst.Raise)) for s in smalls)


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


def _iterated_parts(loop: cst.For | cst.CompFor) -> list[tuple[cst.BaseExpression, cst.BaseExpression]] | None:
    """For `for name, out in zip(names, outputs)` (or `for i, out in enumerate(outputs)`), each element
    of the target with the iterable it takes its values from (`out` from `outputs`; the index from
    the `enumerate(...)` call itself); None for any other loop."""
    target, iterable = loop.target, loop.iter
    if type(target) not in (cst.Tuple, cst.List) or type(iterable) is not cst.Call or type(iterable.func) is not cst.Name:
        return None
    elements = [e.value for e in target.elements if type(e) is cst.Element]
    args = [a.value for a in iterable.args if not a.star and a.keyword is None]
    if len(elements) != len(target.elements) or len(args) != len(iterable.args):
        return None
    if iterable.func.value == "zip" and len(args) == len(elements):
        return list(zip(elements, args))
    if iterable.func.value == "enumerate" and len(args) == 1 and len(elements) == 2:
        return [(elements[0], iterable), (elements[1], args[0])]
    return None
