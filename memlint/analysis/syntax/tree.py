"""One fast walk over a LibCST module: parents, source order and nodes by type.

LibCST's own visitor rebuilds every node it passes and costs about as much as
parsing; this walk only reads dataclass fields, skipping whitespace and
punctuation and text fields through a function generated per node type, and pushes each node
once: about 0.3 s of CPU against 4.5 s on the 113k-line benchmark corpus. Everything else in
`analysis/` is built from the indexes it leaves behind.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import typing
from bisect import bisect_left, bisect_right
from collections import defaultdict
from itertools import islice, repeat
from operator import add
from typing import Callable, Iterable, Iterator

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


def concrete_subclasses(base: type) -> frozenset[type]:
    """`base` and every class derived from it: for LibCST's node classes, `type(node) in` this set
    is `isinstance(node, base)` without `ABCMeta.__instancecheck__`, a Python-level call that
    every `isinstance` against a LibCST node class which is not the node's own type goes through."""
    found = set()
    pending = [base]
    while pending:
        kind = pending.pop()
        found.add(kind)
        pending.extend(kind.__subclasses__())
    return frozenset(found)


_STATEMENTS = concrete_subclasses(cst.BaseSmallStatement) | concrete_subclasses(cst.BaseCompoundStatement)


def _child_fields(node_type: type) -> tuple[str, ...]:
    """The fields that may hold child nodes, in source order (text fields such as `Name.value` left out)."""
    names = _fields_cache.get(node_type)
    if names is None:
        names = _ORDER_OVERRIDES.get(node_type) or tuple(
            f.name
            for f in dataclasses.fields(node_type)
            if not f.name.startswith(_SKIPPED_PREFIXES) and f.type is not str
        )
        _fields_cache[node_type] = names
    return names


class _IsNode(dict):
    """type -> is it a LibCST node class: `isinstance(value, cst.CSTNode)` goes through
    `ABCMeta.__instancecheck__`, a Python-level call (1.7M of them a run); a dict lookup does not."""

    def __missing__(self, kind: type) -> bool:
        answer = self[kind] = issubclass(kind, cst.CSTNode)
        return answer


_IS_NODE = _IsNode()


def _generated(node_type: type, name: str, take: str, reverse: bool) -> Callable | None:
    """A function `name(node, index, take)` generated for `node_type`: it calls `take` with each child
    of `node` (`take(child)` or `take((child, index))`, per `take`'s text), in source order, or in
    reverse for a stack. One line per field instead of a loop over field names with `getattr`: this
    runs for each of the 700k nodes of the benchmark corpus. A field declared a sequence holds nodes
    only; any other holds a node, None, a sentinel, or (`ImportFrom.names`) a sequence of nodes.
    None for a leaf (Name, Integer...)."""
    declared = {f.name: f.type for f in dataclasses.fields(node_type)}
    fields = _child_fields(node_type)
    lines = []
    for field in reversed(fields) if reverse else fields:
        items = f"reversed(node.{field})" if reverse else f"node.{field}"
        if typing.get_origin(declared[field]) is collections.abc.Sequence:
            lines += [f"    for child in {items}:", f"        {take}"]
            continue
        lines += [
            f"    child = node.{field}",
            "    kind = child.__class__",
            "    if is_node[kind]:",
            f"        {take}",
            "    elif kind is tuple or kind is list:",
            f"        for child in {'reversed(child)' if reverse else 'child'}:",
            "            if is_node[child.__class__]:",
            f"                {take}",
        ]
    if not lines:
        return None
    namespace: dict[str, object] = {"is_node": _IS_NODE}
    exec(f"def {name}(node, index, take):\n" + "\n".join(lines), namespace)  # noqa: S102 - built from field names
    return namespace[name]  # type: ignore[return-value]


class _Generated(dict):
    """type -> its generated function (None for a leaf), made on first use."""

    def __init__(self, name: str, take: str, reverse: bool) -> None:
        super().__init__()
        self.name = name
        self.take = take
        self.reverse = reverse

    def __missing__(self, node_type: type) -> Callable | None:
        function = self[node_type] = _generated(node_type, self.name, self.take, self.reverse)
        return function


_PUSH_CHILDREN = _Generated("push_children", "take((child, index))", reverse=True)  # the stack pops them in order
_ADD_CHILDREN = _Generated("add_children", "take(child)", reverse=False)


def add_children(node: cst.CSTNode, add: Callable[[cst.CSTNode], object]) -> None:
    """`add(child)` for each child node of `node`, in source order (whitespace and punctuation left out)."""
    generated = _ADD_CHILDREN[node.__class__]
    if generated is not None:
        generated(node, 0, add)


def iter_children(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The child nodes of `node` in source order (whitespace and punctuation left out)."""
    children: list[cst.CSTNode] = []
    generated = _ADD_CHILDREN[node.__class__]
    if generated is not None:
        generated(node, 0, children.append)
    return children


class _Walk:
    """The walk of one top-level statement (or of a whole module), kept so that the next tree of an edited module
    (server/incremental.py reuses unchanged statements) need not walk it again."""

    def __init__(self, statement: cst.CSTNode) -> None:
        self.statement = statement
        # Pre-order: each node is pushed once (no exit markers); a node's subtree ends where its
        # last descendant sits, found in one reverse pass over the parent indexes below.
        nodes: list[cst.CSTNode] = []
        up: list[int] = []  # per node, the index of its parent (-1 for the statement)
        by_type: defaultdict[type, list[cst.CSTNode]] = defaultdict(list)
        pushers = _PUSH_CHILDREN
        stack: list[tuple[cst.CSTNode, int]] = [(statement, -1)]
        pop, push = stack.pop, stack.append
        add, add_up = nodes.append, up.append
        index = -1
        while stack:
            node, above = pop()
            add(node)
            add_up(above)
            index += 1
            node_type = node.__class__
            by_type[node_type].append(node)
            push_children = pushers[node_type]
            if push_children is not None:
                push_children(node, index, push)
        # A subtree ends where its last child's does (a leaf's at itself). A dict keeps the last value
        # given for each key: parent -> its last child, built in C; its keys come in pre-order (a
        # parent first appears at its first child, right after it), so in reverse each parent's last
        # child is done before it. (A quarter less than a pass over every node in Python.)
        ends = list(range(len(nodes)))
        last_child = dict(zip(up, range(len(nodes))))
        del last_child[-1]  # (the statement's own entry)
        for parent in reversed(last_child):
            ends[parent] = ends[last_child[parent]]
        self.nodes = nodes  # pre-order
        self.up = up
        self.ends = ends  # per node, the index of the last node of its subtree
        self.by_type = dict(by_type)


class _Ends:
    """`tree.end[id(node)]`: the pre-order index of the last node of `node`'s subtree."""

    def __init__(self, order: dict[int, int], ends: list[int]) -> None:
        self._order = order
        self._ends = ends

    def __getitem__(self, key: int) -> int:
        return self._ends[self._order[key]]


class Tree:
    """Parent links, pre-order index, subtree extent and a by-type index.

    Every node has its pre-order index (`order`, the one dict keyed by node); the rest are lists
    by index: `nodes`, `up` (the parent's index) and the subtree ends. Three dicts of 700k nodes
    on the benchmark corpus cost more than the walk that fills them; lists are filled in C.
    `previous`: the tree of an earlier version of the module; the walks of the
    top-level statements both share (the same node objects) are reused. `statements`: walk each
    top-level statement apart, for a later tree of an edited module to reuse (a language server's);
    else one walk of the whole module, which saves joining the walks' indexes (a file's one tree).
    """

    def __init__(self, module: cst.Module, previous: "Tree | None" = None, statements: bool = True) -> None:
        self.module = module
        self._keys: dict[type, list[int]] = {}
        self._walks: dict[int, _Walk] = {}
        if not statements and previous is None:
            walk = _Walk(module)  # index 0 is the module, whose parent index -1 reads the None that ends `nodes`
            self.by_type: dict[type, list[cst.CSTNode]] = defaultdict(list, walk.by_type)
            self._index(walk.nodes, walk.up, walk.ends)
            return
        self.by_type = defaultdict(list)
        self.by_type[type(module)].append(module)
        old = previous._walks if previous is not None else {}
        # Index 0 is the module, whose parent index -1 reads the None that ends `nodes`.
        nodes: list[cst.CSTNode | None] = [module]
        up = [-1]
        ends = [0]
        for statement in iter_children(module):
            walk = old.get(id(statement))
            if walk is None or walk.statement is not statement:
                walk = _Walk(statement)
            self._walks[id(statement)] = walk
            for node_type, same in walk.by_type.items():
                self.by_type[node_type].extend(same)
            # The walk's indexes count from its statement: shift them by the nodes before it.
            base = len(nodes)
            nodes.extend(walk.nodes)
            up.append(0)
            up.extend(map(add, islice(walk.up, 1, None), repeat(base)))
            ends.extend(map(add, walk.ends, repeat(base)))
        ends[0] = len(nodes) - 1
        self._index(nodes, up, ends)

    def _index(self, nodes: list, up: list[int], ends: list[int]) -> None:
        self.order: dict[int, int] = dict(zip(map(id, nodes), range(len(nodes))))
        nodes.append(None)
        self.nodes = nodes  # by pre-order index; the last is None, the parent of the module
        self.up = up  # by pre-order index, the parent's
        self._ends = ends
        self.end = _Ends(self.order, ends)

    def parent_of(self, node: cst.CSTNode) -> cst.CSTNode | None:
        index = self.order.get(id(node))
        return None if index is None else self.nodes[self.up[index]]

    def ancestors(self, node: cst.CSTNode) -> Iterator[cst.CSTNode]:
        index = self.order.get(id(node))
        if index is None:
            return
        nodes, up = self.nodes, self.up
        index = up[index]
        while index >= 0:
            yield nodes[index]
            index = up[index]

    def contains(self, outer: cst.CSTNode, inner: cst.CSTNode) -> bool:
        """Is `inner` inside `outer`'s subtree (or `outer` itself)?"""
        start = self.order[id(outer)]
        return start <= self.order[id(inner)] <= self._ends[start]

    def is_after(self, node: cst.CSTNode, region: cst.CSTNode) -> bool:
        """Does `node` come after the whole of `region` in source order?"""
        return self.order[id(node)] > self._ends[self.order[id(region)]]

    def indexes_of(self, nodes: Iterable[cst.CSTNode]) -> list[int]:
        """The pre-order indexes of `nodes`, sorted (for `holds_any`)."""
        return sorted(map(self.order.__getitem__, map(id, nodes)))

    def holds_any(self, node: cst.CSTNode, indexes: list[int]) -> bool:
        """Is a node of `indexes` (`indexes_of`) inside `node`'s subtree (or `node` itself)?"""
        start = self.order[id(node)]
        at = bisect_left(indexes, start)
        return at < len(indexes) and indexes[at] <= self._ends[start]

    def descendants(self, node: cst.CSTNode, node_type: type) -> list[cst.CSTNode]:
        """Nodes of `node_type` inside `node`, in source order (uses the index)."""
        nodes = self.by_type.get(node_type)
        if not nodes:
            return []
        keys = self._keys.get(node_type)
        if keys is None:
            keys = self._keys[node_type] = list(map(self.order.__getitem__, map(id, nodes)))
        start = self.order[id(node)]
        return nodes[bisect_left(keys, start) : bisect_right(keys, self._ends[start])]

    def in_top_level(self, statement: cst.CSTNode, node_type: type) -> list[cst.CSTNode]:
        """`descendants` of a top-level statement, from its own walk (no index over the module)."""
        walk = self._walks.get(id(statement))
        return walk.by_type.get(node_type, []) if walk is not None else self.descendants(statement, node_type)

    def statement_of(self, node: cst.CSTNode) -> cst.CSTNode:
        """The innermost statement (simple or compound) holding `node`."""
        index = self.order.get(id(node))
        if index is None:
            return node
        nodes, up = self.nodes, self.up
        while index >= 0:
            current = nodes[index]
            if current.__class__ in _STATEMENTS:
                return current
            index = up[index]
        return node
