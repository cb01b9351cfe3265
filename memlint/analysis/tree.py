"""One fast walk over a LibCST module: parents, source order and nodes by type.

LibCST's own visitor rebuilds every node it passes and costs about as much as
parsing; this walk only reads dataclass fields, skipping whitespace and
punctuation: 0.33 s against 4.5 s on the 113k-line benchmark corpus. Everything else in `analysis/`
is built from the indexes it leaves behind.
"""

from __future__ import annotations

import dataclasses
from bisect import bisect_left, bisect_right
from collections import defaultdict
from typing import Iterator

import libcst as cst

_SKIPPED_PREFIXES = (
    "whitespace",
    "lpar",
    "rpar",
    "leading_lines",
    "lines_after",
    "header",
    "footer",
    "comma",
    "semicolon",
    "colon",
    "equal",
    "star",
    "operator",
    "lbracket",
    "rbracket",
    "lbrace",
    "rbrace",
    "first_line",
    "empty_lines",
    "dot",
    "asynchronous",
)
# Decorators come first in the source but last among FunctionDef's fields.
_ORDER_OVERRIDES = {
    cst.FunctionDef: ("decorators", "name", "params", "returns", "body"),
    cst.ClassDef: ("decorators", "name", "bases", "keywords", "body"),
}
_fields_cache: dict[type, tuple[str, ...]] = {}


def _child_fields(node_type: type) -> tuple[str, ...]:
    names = _fields_cache.get(node_type)
    if names is None:
        names = _ORDER_OVERRIDES.get(node_type) or tuple(
            f.name
            for f in dataclasses.fields(node_type)
            if not f.name.startswith(_SKIPPED_PREFIXES)
        )
        _fields_cache[node_type] = names
    return names


def iter_children(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    for name in _child_fields(type(node)):
        value = getattr(node, name)
        if isinstance(value, cst.CSTNode):
            yield value
        elif isinstance(value, (tuple, list)):
            for item in value:
                if isinstance(item, cst.CSTNode):
                    yield item


class _Walk:
    """The walk of one top-level statement, kept so that the next tree of an edited module
    (server/incremental.py reuses unchanged statements) need not walk it again."""

    def __init__(self, statement: cst.CSTNode) -> None:
        self.statement = statement
        self.ids: list[int] = []
        self.ends: list[int] = []  # per node, the index of the last node of its subtree
        self.parent: dict[int, cst.CSTNode] = {}
        self.by_type: dict[type, list[cst.CSTNode]] = defaultdict(list)
        ids, ends, parent, by_type = self.ids, self.ends, self.parent, self.by_type
        # (node, exiting) pairs: an exit marker closes the node's subtree range.
        stack: list[tuple[cst.CSTNode, bool]] = [(statement, False)]
        open_at: dict[int, int] = {}
        while stack:
            node, exiting = stack.pop()
            if exiting:
                ends[open_at.pop(id(node))] = len(ids) - 1
                continue
            open_at[id(node)] = len(ids)
            ids.append(id(node))
            ends.append(0)
            by_type[type(node)].append(node)
            stack.append((node, True))
            children = list(iter_children(node))
            for child in reversed(children):
                parent[id(child)] = node
                stack.append((child, False))


class Tree:
    """Parent links, pre-order index, subtree extent and a by-type index.

    `previous`: the tree of an earlier version of the module; the walks of the
    top-level statements both share (the same node objects) are reused.
    """

    def __init__(self, module: cst.Module, previous: "Tree | None" = None) -> None:
        self.module = module
        self.parent: dict[int, cst.CSTNode] = {}
        self.order: dict[int, int] = {id(module): 0}
        self.end: dict[int, int] = {}
        self.by_type: dict[type, list[cst.CSTNode]] = defaultdict(list)
        self.by_type[type(module)].append(module)
        self._keys: dict[type, list[int]] = {}
        self._walks: dict[int, _Walk] = {}
        old = previous._walks if previous is not None else {}
        base = 1
        for statement in iter_children(module):
            walk = old.get(id(statement))
            if walk is None or walk.statement is not statement:
                walk = _Walk(statement)
            self._walks[id(statement)] = walk
            self.parent[id(statement)] = module
            self.parent.update(walk.parent)
            self.order.update(zip(walk.ids, range(base, base + len(walk.ids))))
            self.end.update(zip(walk.ids, [base + e for e in walk.ends]))
            for node_type, nodes in walk.by_type.items():
                self.by_type[node_type].extend(nodes)
            base += len(walk.ids)
        self.end[id(module)] = base - 1

    def parent_of(self, node: cst.CSTNode) -> cst.CSTNode | None:
        return self.parent.get(id(node))

    def ancestors(self, node: cst.CSTNode) -> Iterator[cst.CSTNode]:
        current = self.parent.get(id(node))
        while current is not None:
            yield current
            current = self.parent.get(id(current))

    def contains(self, outer: cst.CSTNode, inner: cst.CSTNode) -> bool:
        """Is `inner` inside `outer`'s subtree (or `outer` itself)?"""
        start = self.order[id(outer)]
        return start <= self.order[id(inner)] <= self.end[id(outer)]

    def is_after(self, node: cst.CSTNode, region: cst.CSTNode) -> bool:
        """Does `node` come after the whole of `region` in source order?"""
        return self.order[id(node)] > self.end[id(region)]

    def descendants(self, node: cst.CSTNode, node_type: type) -> list[cst.CSTNode]:
        """Nodes of `node_type` inside `node`, in source order (uses the index)."""
        nodes = self.by_type.get(node_type)
        if not nodes:
            return []
        keys = self._keys.get(node_type)
        if keys is None:
            keys = self._keys[node_type] = [self.order[id(n)] for n in nodes]
        start, stop = self.order[id(node)], self.end[id(node)]
        return nodes[bisect_left(keys, start) : bisect_right(keys, stop)]

    def statement_of(self, node: cst.CSTNode) -> cst.CSTNode:
        """The innermost statement (simple or compound) holding `node`."""
        current: cst.CSTNode | None = node
        while current is not None and not isinstance(
            current, (cst.BaseSmallStatement, cst.BaseCompoundStatement)
        ):
            current = self.parent.get(id(current))
        return current or node
