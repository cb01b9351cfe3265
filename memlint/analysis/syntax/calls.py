"""Call sites of one file: the functions a call may reach, closures included, and each function's callers.

Built on `Scopes` (the functions a call names) and `Closures` (the inner functions a
factory returns, followed to where they run); every analysis that follows a call
within the file asks here.
"""

from __future__ import annotations

from functools import cached_property
from typing import Iterator

import libcst as cst

from memlint.analysis.syntax.closures import Closures
from memlint.analysis.syntax.imports import dotted
from memlint.analysis.syntax.scopes import Scopes


class Calls:
    def __init__(self, scopes: Scopes) -> None:
        self.scopes = scopes
        self.tree = scopes.tree
        self.closures = Closures(scopes)
        # id(call) -> (the call, the functions it may reach): 95k questions about 18k calls on the
        # benchmark corpus; the call is kept so that its id is not reused while this lives.
        self._local_callees: dict[int, tuple[cst.Call, list[cst.FunctionDef]]] = {}
        self._passed: dict[int, tuple[cst.Call, list[cst.FunctionDef]]] = {}  # id(call) -> passed_callables
        self._escaped: set[int] = set()  # id(function) of those referenced other than by calls

    def imported_statement_calls(
        self, imported_roots: set[str], assigned: bool = False
    ) -> Iterator[tuple[cst.Expr | cst.Assign, cst.Call, str]]:
        """Statements that only call an imported function with arguments (`record(history, loss)`),
        none of this file's: what the callee does with them is the other file's summary to say;
        with `assigned`, also those that bind what it returns (`probe = FeatureProbe(model, names)`).
        Each: the statement, the call, the callee as written."""
        statements = [*self.tree.by_type.get(cst.Expr, ()), *(self.tree.by_type.get(cst.Assign, ()) if assigned else ())]
        for statement in statements:
            call = statement.value
            if type(call) is not cst.Call or not call.args:
                continue
            name = dotted(call.func)
            if name and name.split(".")[0] in imported_roots and not self.local_callees(call):
                yield statement, call, name

    def local_callees(self, call: cst.Call) -> list[cst.FunctionDef]:
        """Functions of this file a call may reach: `f(...)`, `self.f(...)`, or a
        closure that `fn(...)` holds (`fn = make_step()`)."""
        known = self._local_callees.get(id(call))
        if known is None:
            found = self.scopes.named_callees(call) + self.closures.callees(call)
            known = self._local_callees[id(call)] = (call, found)
        return list(known[1])  # a copy: the caller may change it

    def passed_callables(self, call: cst.Call) -> list[cst.FunctionDef]:
        """Functions of this file that `call` is handed as values, for the callee to run:
        `map_batches(fun=self.forward_batch)`, `apply(predict_one, data)`,
        `pool.map(functools.partial(score, model), batches)`. Their callers are unknown
        (`call_sites` leaves them out), but what they run, the call may run."""
        known = self._passed.get(id(call))
        if known is None:
            found: list[cst.FunctionDef] = []
            if not _is_partial(call):  # binding arguments runs nothing
                for arg in call.args:
                    found += self._callable_value(arg.value, call, follow=True)
            known = self._passed[id(call)] = (call, found)
        return list(known[1])

    def _callable_value(self, value: cst.BaseExpression, at: cst.CSTNode, follow: bool) -> list[cst.FunctionDef]:
        """The functions of this file that `value` names as a callable: `f`, `self.f`,
        `functools.partial(f, ...)`, or (once) a name bound to one of these (`run = partial(f, m)`)."""
        if type(value) is cst.Call and _is_partial(value) and value.args:
            value = value.args[0].value  # `functools.partial(f, model)` runs `f`
        if type(value) not in (cst.Name, cst.Attribute):
            return []
        named = self.scopes.functions_named(value, at)
        if named or not follow or type(value) is not cst.Name:
            return named
        scope = self.scopes.scope_of(at)
        return [
            func
            for binding in self.scopes.bindings(scope, value.value)
            if binding.value is not None and type(binding.node) is cst.Assign
            for func in self._callable_value(binding.value, binding.node, follow=False)
        ]

    def call_sites(self) -> dict[cst.FunctionDef, list[cst.Call]]:
        """Each function -> its call sites, or [] when it is also referenced another way
        (passed as a callback, stored, exported), so its callers are unknown."""
        return self._call_site_table

    @cached_property
    def _call_site_table(self) -> dict[cst.FunctionDef, list[cst.Call]]:
        # one pass over every call of the file: analyses ask per function, many times
        sites: dict[int, list[cst.Call]] = {}
        escaped: set[int] = set()
        called_ids: set[int] = set()
        for call in self.tree.by_type.get(cst.Call, ()):
            called_ids.add(id(call.func))
            for func in self.local_callees(call) or self._instance_methods(call):
                sites.setdefault(id(func), []).append(call)
        names = self.scopes.functions
        # Exact types: LibCST's node classes have no subclasses, and isinstance against them
        # goes through `ABCMeta.__instancecheck__` whenever it is not the node's own class.
        for node in self.tree.by_type.get(cst.Name, ()):
            if node.value in names and id(node) not in called_ids:
                parent = self.tree.parent_of(node)
                kind = type(parent)
                if kind is cst.FunctionDef and parent.name is node:
                    continue
                if kind is cst.Return and self._returned_tracked_closure(node):
                    continue  # its factory's results are only called: those calls are its call sites
                if kind is cst.Attribute and (id(parent) in called_ids or parent.attr is node):
                    continue  # (an attribute's name: the loop below)
                for func in names[node.value]:
                    escaped.add(id(func))
        for node in self.tree.by_type.get(cst.Attribute, ()):
            if node.attr.value in names and id(node) not in called_ids and not self._truth_tested(node):
                # a method handed on as `self.step`: the method `self.step()` would run (not one of an
                # unrelated class); as `runner.step`, any method of that name. A plain function reaches
                # an object only by its name written somewhere (seen above), so `opt.evaluate` is an
                # option, not a reference
                handed = self.scopes.functions_named(node, node) if _on_self(node) else names[node.attr.value]
                for func in handed:
                    if self.scopes.enclosing_class(func) is not None:
                        escaped.add(id(func))
        self._escaped = escaped
        result: dict[cst.FunctionDef, list[cst.Call]] = {}
        for group in names.values():
            for func in group:
                result[func] = [] if id(func) in escaped else sites.get(id(func), [])
        return result

    def handed_on(self, func: cst.FunctionDef) -> bool:
        """Is `func` referenced other than by calls (passed as a callback, stored, exported), so that
        it may be called from anywhere?"""
        self._call_site_table  # noqa: B018  (it finds the references)
        return id(func) in self._escaped

    def _truth_tested(self, node: cst.Attribute) -> bool:
        """Is `node` only tested for truth (`if self.args.imprint_weights:`, `while not opt.done`, an
        operand of `and`/`or` there)? A bound method is always true, so a test reads a value of that
        name (an option), and hands no method on."""
        child: cst.CSTNode = node
        parent = self.tree.parent_of(node)
        while type(parent) is cst.BooleanOperation or (
            type(parent) is cst.UnaryOperation and type(parent.operator) is cst.Not
        ):
            child, parent = parent, self.tree.parent_of(parent)
        return type(parent) in (cst.If, cst.While, cst.IfExp) and parent.test is child

    @property
    def classes(self) -> dict[str, cst.ClassDef]:
        """Top-level classes of this file by name (a name defined twice is left out)."""
        return self._classes

    @cached_property
    def _classes(self) -> dict[str, cst.ClassDef]:
        """Top-level classes of this file by name (a name defined twice is left out: which one a call makes is unknown)."""
        found: dict[str, list[cst.ClassDef]] = {}
        for cls in self.tree.by_type.get(cst.ClassDef, ()):
            if self.tree.parent_of(cls) is self.scopes.module:
                found.setdefault(cls.name.value, []).append(cls)
        return {name: group[0] for name, group in found.items() if len(group) == 1}

    def _instance_methods(self, call: cst.Call) -> list[cst.FunctionDef]:
        """`evaluator.evaluate(...)` where every binding of `evaluator` that can reach the call
        (in its function, else at the module's top level) constructs `Evaluator(...)`, a class of
        this file: that class's own method. A call site of the method, so that what its callers do
        (run it without grad) reaches its body."""
        func = call.func
        if type(func) is not cst.Attribute or type(func.value) is not cst.Name or not self._classes:
            return []
        name = func.value.value
        if name in ("self", "cls"):
            return []
        scopes = self.scopes
        scope = scopes.scope_of(call)
        bindings = scopes.bindings(scope, name)
        if not bindings and type(scope) is cst.FunctionDef and name not in scopes.params(scope):
            bindings = scopes.bindings(scopes.module, name)
        made = set()
        for binding in bindings:
            value = binding.value
            if type(binding.node) not in (cst.Assign, cst.AnnAssign) or type(value) is not cst.Call:
                return []
            if type(value.func) is not cst.Name or value.func.value not in self._classes:
                return []
            made.add(value.func.value)
        if len(made) != 1:
            return []
        cls = self._classes[made.pop()]
        return [
            stmt
            for stmt in cls.body.body
            if type(stmt) is cst.FunctionDef and stmt.name.value == func.attr.value
        ]

    def _returned_tracked_closure(self, node: cst.Name) -> bool:
        factory = self.scopes.scope_of(node)
        closures = self.closures
        return any(
            inner.name.value == node.value and closures.tracked(inner)
            for inner in closures.returned.get(id(factory), ())
        )


def _on_self(node: cst.Attribute) -> bool:
    return type(node.value) is cst.Name and node.value.value in ("self", "cls")


def _is_partial(call: cst.Call) -> bool:
    return dotted(call.func) in ("partial", "functools.partial")


def parameter_names(func: cst.FunctionDef) -> list[str]:
    """`func`'s parameters that a call can name, in order (no `*args`, `**kwargs`)."""
    params = func.params
    return [p.name.value for p in [*params.posonly_params, *params.params, *params.kwonly_params]]


def keyword_rest(call: cst.Call, params: list[str]) -> list[cst.BaseExpression]:
    """The arguments of `call` that a function whose nameable parameters are `params` receives in its
    `**` parameter: the keywords that name none of them (`meter.update(loss=loss)` for `update(self,
    **kwargs)`) and the mappings `call` unpacks (`**outputs`)."""
    return [a.value for a in call.args if a.star == "**" or a.keyword is not None and a.keyword.value not in params]


def argument_for(call: cst.Call, func: cst.FunctionDef, param: str) -> cst.BaseExpression | None:
    """The argument of `call` that `func` receives as `param` (a method's `self` is the receiver, the
    object being constructed, or the object called)."""
    params = parameter_names(func)
    if params and params[0] in ("self", "cls") and (
        isinstance(call.func, cst.Attribute) or func.name.value in ("__init__", "__call__")
    ):
        params = params[1:]  # bound method, construction or a called object: `self` is not an argument
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == param:
            return arg.value
    positional = [a for a in call.args if a.keyword is None and not a.star]
    if param in params and params.index(param) < len(positional):
        return positional[params.index(param)].value
    return None
