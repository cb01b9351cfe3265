"""Source positions for the few nodes that are reported.

LibCST's PositionProvider visits the whole tree and then generates the whole
module's code, which costs about five times the parse for a large file. The
reported nodes are few, so generate code only up to the last of them, with
cheap position bookkeeping, and skip the visit.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable, Iterator

import libcst as cst
from libcst._position import CodePosition, CodeRange
from libcst.metadata.position_provider import (
    NEWLINE_RE,
    PositionProvider,
    PositionProvidingCodegenState,
)


class _Done(Exception):
    pass


@dataclass(frozen=False)
class _State(PositionProvidingCodegenState):
    last: cst.CSTNode | None = None
    done: bool = False

    def add_token(self, value: str) -> None:
        if "\n" in value or "\r" in value:
            segments = NEWLINE_RE.split(value)
            self.line += len(segments) - 1
            self.column = len(segments[-1])
        else:
            self.column += len(value)

    def add_indent_tokens(self) -> None:
        for token in self.indent_tokens:
            self.add_token(token)

    def after_codegen(self, node: cst.CSTNode) -> None:
        super().after_codegen(node)
        if node is self.last:
            self.done = True
            raise _Done

    @contextmanager
    def record_syntactic_position(
        self, node: cst.CSTNode, *, start_node: cst.CSTNode | None = None, end_node: cst.CSTNode | None = None
    ) -> Iterator[None]:
        start = CodePosition(self.line, self.column)
        try:
            yield
        finally:
            if not self.done:  # while unwinding from _Done, later nodes have no position
                computed = self.provider._computed
                start = computed[start_node].start if start_node is not None else start
                end = computed[end_node].end if end_node is not None else CodePosition(self.line, self.column)
                computed[node] = CodeRange(start, end)


def positions(module: cst.Module, targets: list[cst.CSTNode], last: cst.CSTNode) -> dict[cst.CSTNode, CodeRange]:
    """CodeRange (1-based lines, 0-based columns) of `targets`; `last` is the
    target that ends latest in the source."""
    computed = _ranges_until(module, last)
    return {node: computed[node] for node in targets if node in computed}


def all_ranges(module: cst.Module) -> dict[cst.CSTNode, CodeRange]:
    """Every node's CodeRange, from one generation of the whole module's code."""
    return _ranges_until(module, None)


def _ranges_until(module: cst.Module, last: cst.CSTNode | None) -> dict[cst.CSTNode, CodeRange]:
    """The ranges of the nodes generated up to `last` (None: the whole module)."""
    provider = PositionProvider()
    state = _State(default_indent=module.default_indent, default_newline=module.default_newline, provider=provider, last=last)
    try:
        module._codegen(state)
    except _Done:
        pass
    return provider._computed


def positions_in_statements(
    module: cst.Module,
    targets: list[cst.CSTNode],
    parent_of: Callable[[cst.CSTNode], cst.CSTNode | None],
    first_lines: dict[int, int],
) -> dict[cst.CSTNode, CodeRange] | None:
    """The same as `positions`, generating the code of only the top-level statements that hold
    targets, each from its first line (`first_lines`: id(statement) -> line, as an incremental
    parser knows them). None when a target's statement has no known line."""
    groups: dict[int, tuple[cst.CSTNode, list[cst.CSTNode]]] = {}
    for target in targets:
        top = target
        while (parent := parent_of(top)) is not None and parent is not module:
            top = parent
        if parent is not module or id(top) not in first_lines:
            return None
        groups.setdefault(id(top), (top, []))[1].append(target)
    found: dict[cst.CSTNode, CodeRange] = {}
    for top, members in groups.values():
        provider = PositionProvider()
        state = _State(default_indent=module.default_indent, default_newline=module.default_newline, provider=provider)
        state.line = first_lines[id(top)]
        top._codegen(state)
        found.update((node, provider._computed[node]) for node in members if node in provider._computed)
    return found
