"""The analysis walk (analysis/syntax/tree.py) against plain reference walks.

The walk reads children through functions generated per node type and keeps its indexes
as lists; these tests rebuild the same facts the slow, obvious way (a `getattr` loop over
the node's fields, a recursive pre-order walk, a walk up the parents) on every case file
and on syntax the cases may lack, so a LibCST upgrade that changes a node's fields, or a
change to the walk, shows here first.
"""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from memlint.analysis.syntax.scopes import Scopes
from memlint.analysis.syntax.tree import Tree, _child_fields, concrete_subclasses, iter_children
from memlint.parsing import parse_module

CASES = sorted((Path(__file__).resolve().parent.parent / "test_cases").rglob("*.py"))

EXTRA = '''
from . import a
from .m import *
from x import (b as c, d)
import p.q as r
@deco(1)
@other
async def f(a, /, b: int = 1, *args, c, d=2, **kw) -> "T":
    async with g() as (h, i), j:
        async for k, *l in m:
            yield [n async for n in o if n]
    return {p: q for p, q in r.items()}, {s for s in t}, (u for u in v)
class C(Base, metaclass=M):
    x: int = 1
    def g(self):
        global G
        lambda y, *z: y if z else -y
        try:
            pass
        except* ValueError as e:
            raise RuntimeError("no") from e
        finally:
            del self.x[1:2, ::3]
match command.split():
    case [action, *rest] if rest:
        pass
    case {"k": v, **others}:
        pass
    case Point(x=0) | None:
        pass
print(f"{x!r:>{width}} {y=}", b"raw" "more", ...)
while (n := n - 1) > 0:
    assert n, "positive"
else:
    a @= b; c **= not d
'''


def _reference_children(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The children the walk is meant to see: every node (or node in a sequence) of the fields it reads."""
    found: list[cst.CSTNode] = []
    for name in _child_fields(type(node)):
        value = getattr(node, name)
        if isinstance(value, cst.CSTNode):
            found.append(value)
        elif isinstance(value, (tuple, list)):
            found.extend(item for item in value if isinstance(item, cst.CSTNode))
    return found


def _reference_preorder(module: cst.Module) -> list[tuple[cst.CSTNode, cst.CSTNode | None]]:
    """(node, parent) in pre-order."""
    out: list[tuple[cst.CSTNode, cst.CSTNode | None]] = []

    def visit(node: cst.CSTNode, parent: cst.CSTNode | None) -> None:
        out.append((node, parent))
        for child in _reference_children(node):
            visit(child, node)

    visit(module, None)
    return out


SOURCES = [("extra", EXTRA)] + [(f"{p.parent.name[:5]}/{p.name}", p) for p in CASES[::5]]


@pytest.mark.parametrize("name, source", SOURCES, ids=[name for name, _ in SOURCES])
def test_tree_indexes_equal_those_of_a_plain_walk(name: str, source: str | Path) -> None:
    module = parse_module(source if isinstance(source, str) else source.read_text(encoding="utf-8"))
    tree = Tree(module)
    scopes = Scopes(module, tree)
    reference = _reference_preorder(module)
    ends: dict[int, int] = {}
    for index in range(len(reference) - 1, -1, -1):  # the last node of each subtree, from the end
        node, _ = reference[index]
        children = _reference_children(node)
        ends[id(node)] = ends[id(children[-1])] if children else index
    assert [tree.order[id(node)] for node, _ in reference] == list(range(len(reference)))
    for index, (node, parent) in enumerate(reference):
        assert iter_children(node) == _reference_children(node)
        assert tree.parent_of(node) is parent
        assert tree.end[id(node)] == ends[id(node)]
        ancestors = []
        above = parent
        while above is not None:
            ancestors.append(above)
            above = next(p for n, p in reference if n is above)
        assert list(tree.ancestors(node)) == ancestors
        function = next((a for a in ancestors if type(a) is cst.FunctionDef), module)
        assert scopes.scope_of(node) is function
        statement = next(
            (a for a in [node, *ancestors] if isinstance(a, (cst.BaseSmallStatement, cst.BaseCompoundStatement))), node
        )
        assert tree.statement_of(node) is statement
    by_type: dict[type, list[int]] = {}
    for node, _ in reference:
        by_type.setdefault(type(node), []).append(id(node))
    assert {kind: list(map(id, nodes)) for kind, nodes in tree.by_type.items()} == by_type


def test_nodes_outside_the_tree() -> None:
    module = parse_module("def f():\n    return x\n")
    tree = Tree(module)
    stranger = cst.Name("x")
    assert tree.parent_of(stranger) is None and list(tree.ancestors(stranger)) == []
    assert tree.statement_of(stranger) is stranger
    assert Scopes(module, tree).scope_of(stranger) is module


def test_exact_type_sets_are_the_subclasses() -> None:
    statements = concrete_subclasses(cst.BaseSmallStatement)
    assert cst.Expr in statements and cst.Return in statements and cst.If not in statements
    every = concrete_subclasses(cst.CSTNode)
    assert {kind for kind in every if issubclass(kind, cst.BaseSmallStatement)} == statements


def test_holds_any_answers_as_a_walk_of_the_subtree() -> None:
    """`holds_any(node, indexes_of(nodes))` is: does one of `nodes` lie in `node`'s subtree?"""
    tree = Tree(parse_module("x = f(a, g(b))\ny = a.b\nfor a in h(c): pass\n"))
    named_a = [n for n in tree.by_type[cst.Name] if n.value == "a"]
    indexes = tree.indexes_of(named_a)
    for node in tree.nodes[:-1]:
        walked = [n for n in tree.descendants(node, cst.Name) if n.value == "a"]
        assert tree.holds_any(node, indexes) == bool(walked)
    assert not tree.holds_any(tree.module, [])
