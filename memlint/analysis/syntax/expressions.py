"""Small syntactic helpers over LibCST expressions, shared by analysis and rules."""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from memlint.analysis.syntax.as_written import text_of
from memlint.analysis.syntax.tree import add_children


def call_arg(call: cst.Call, position: int | None, keyword: str | None = None) -> cst.Arg | None:
    """The argument at `position` (positional) or named `keyword`."""
    positional = 0
    for arg in call.args:
        if arg.keyword is not None:
            if keyword is not None and arg.keyword.value == keyword:
                return arg
            continue
        if arg.star:
            if position is not None:
                return None  # the positions after `*args` are not known
            continue  # a keyword may still follow: `f(x, *args, flag=False)`
        if position is not None and positional == position:
            return arg
        positional += 1
    return None


def keyword_arg(call: cst.Call, keyword: str) -> cst.Arg | None:
    return call_arg(call, None, keyword)


def bool_constant(expr: cst.BaseExpression) -> bool | None:
    if isinstance(expr, cst.Name) and expr.value in ("True", "False"):
        return expr.value == "True"
    if isinstance(expr, cst.Integer):
        return expr.value not in ("0",)
    return None


def root_name(expr: cst.BaseExpression) -> str | None:
    """`losses` for `losses`, `self` for `self.a.b`, `d` for `d[k].x`."""
    # Exact types here and below: LibCST's node classes have no subclasses, and isinstance
    # against them goes through `ABCMeta.__instancecheck__` whenever it is not the node's own class.
    while True:
        kind = type(expr)
        if kind is cst.Name:
            return expr.value
        if kind is cst.Attribute or kind is cst.Subscript:
            expr = expr.value
        else:
            return None


def method_name(call: cst.Call) -> str | None:
    return call.func.attr.value if type(call.func) is cst.Attribute else None


def callee_name(call: cst.Call) -> str | None:
    """The last name of the callee: `model` for `self.model(x)`, `step` for `opt.step()`."""
    kind = type(call.func)
    if kind is cst.Name:
        return call.func.value
    if kind is cst.Attribute:
        return call.func.attr.value
    return None


def names_in(expr: cst.CSTNode) -> Iterator[str]:
    """Every plain Name read in `expr` (not attribute names) from the scope `expr` lies in: a name a
    comprehension binds (`loss` in `sum(loss for loss in losses)`) is the comprehension's own, never
    the enclosing one of the same name."""
    stack: list[cst.CSTNode] = [expr]
    pop, push = stack.pop, stack.append
    while stack:
        node = pop()
        kind = node.__class__
        if kind is cst.Name:
            yield node.value
        elif kind is cst.Attribute:
            push(node.value)
        elif kind in _COMPREHENSIONS:
            yield from _comprehension_reads(node)
        else:
            add_children(node, push)


_COMPREHENSIONS = frozenset({cst.GeneratorExp, cst.ListComp, cst.SetComp, cst.DictComp})


def _comprehension_reads(node: cst.CSTNode) -> Iterator[str]:
    """The names a comprehension reads from its enclosing scope: all of its first iterable (evaluated
    there), and the others' names less those its `for` clauses bind."""
    first: cst.CompFor = node.for_in  # type: ignore[attr-defined]
    yield from names_in(first.iter)
    bound: set[str] = set()
    inner: list[cst.CSTNode] = []
    clause: cst.CompFor | None = first
    while clause is not None:
        bound.update(target_names(clause.target))
        if clause is not first:
            inner.append(clause.iter)
        inner.extend(clause.ifs)
        clause = clause.inner_for_in
    inner.extend([node.key, node.value] if type(node) is cst.DictComp else [node.elt])  # type: ignore[attr-defined]
    for part in inner:
        for name in names_in(part):
            if name not in bound:
                yield name


def target_names(target: cst.BaseExpression) -> list[str]:
    """Names bound by an assignment target (`a`, `a, (b, *c)`)."""
    kind = type(target)
    if kind is cst.Name:
        return [target.value]
    if kind is cst.Tuple or kind is cst.List:
        out: list[str] = []
        for element in target.elements:
            out.extend(target_names(element.value))
        return out
    if kind is cst.StarredElement:
        return target_names(target.value)
    return []


def is_self_attribute(expr: cst.BaseExpression) -> bool:
    """`self.x`, `self.x.y`, `self.x[k]`."""
    return root_name(expr) == "self" and not isinstance(expr, cst.Name)


def code(node: cst.CSTNode) -> str:
    """Source text of a node (for messages): as written for a node of the light tree being
    analysed (whose generated code would be normalized), else generated."""
    text = text_of(node)
    return text if text is not None else cst.Module(body=[]).code_for_node(node)


def reads_as_name(expr: cst.CSTNode, name: str) -> bool:
    """Is `expr` exactly the bare name `name` (`code(expr) == name`, without generating code)?"""
    return isinstance(expr, cst.Name) and expr.value == name and not expr.lpar


def same_code(a: cst.CSTNode, b: cst.CSTNode) -> bool:
    """Do `a` and `b` read the same (`code(a) == code(b)`, spacing and parentheses included)?
    Compared node by node, so that most pairs differ at their first node, without generating code."""
    return a.deep_equals(b)


def literal_parts(value: cst.BaseExpression) -> list[cst.BaseExpression]:
    """The leaves of a literal tuple/list/dict (values), else the value itself:
    `{"loss": loss, "out": (a, b)}` -> [loss, a, b]."""
    if isinstance(value, (cst.Tuple, cst.List)):
        return [p for e in value.elements for p in literal_parts(e.value)]
    if isinstance(value, cst.Dict):
        return [p for e in value.elements if isinstance(e, cst.DictElement) for p in literal_parts(e.value)]
    return [value]


def is_literal(value: cst.BaseExpression) -> bool:
    """A number, a string, True, False or None (negated, or a tuple or list of them)."""
    if isinstance(value, (cst.Integer, cst.Float, cst.SimpleString, cst.ConcatenatedString)):
        return True
    if type(value) is cst.UnaryOperation:
        return is_literal(value.expression)
    if type(value) is cst.Name:
        return value.value in ("True", "False", "None")
    if type(value) in (cst.Tuple, cst.List):
        return all(is_literal(e.value) for e in value.elements)
    return False
