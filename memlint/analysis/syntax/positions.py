"""Source positions for the few nodes that are reported or named in a message.

LibCST's PositionProvider visits the whole tree and then generates the whole
module's code, which costs about five times the parse for a large file. The
nodes asked about are few, so generate code, with cheap position bookkeeping,
only of the top-level statements that hold them, and skip the visit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

import libcst as cst
from libcst._position import CodeRange
from libcst.metadata.position_provider import (
    NEWLINE_RE,
    PositionProvider,
    PositionProvidingCodegenState,
)


@dataclass(frozen=False)
class _State(PositionProvidingCodegenState):
    """Counts lines and columns without keeping the generated text."""

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


class Positions:
    """Source ranges of one module's nodes, generating with position bookkeeping only the code of the
    top-level statements that hold the nodes asked about, each from its first line.

    `first_lines` (id(top-level statement) -> first line) comes from an incremental parser that
    knows it; otherwise one plain generation of the module's code counts the lines of each
    statement (about a seventh of the cost of generating it with positions)."""

    def __init__(
        self,
        module: cst.Module,
        parent_of: Callable[[cst.CSTNode], cst.CSTNode | None],
        first_lines: dict[int, int] | None = None,
    ) -> None:
        self.module = module
        self._parent_of = parent_of
        self._first_lines = first_lines
        self._by_statement: dict[int, dict[cst.CSTNode, CodeRange]] = {}  # id(statement) -> its nodes' ranges
        self._whole: dict[cst.CSTNode, CodeRange] | None = None

    def range_of(self, node: cst.CSTNode, within: cst.CSTNode | None = None) -> CodeRange:
        """Where `node` is (1-based lines, 0-based columns); KeyError for a node without a range.
        `within`: a node the analysis walk knows that holds `node`, for punctuation the walk
        leaves out (an expression's parentheses)."""
        return self._ranges_around(within if within is not None else node)[node]

    def ranges(self, nodes: Iterable[cst.CSTNode]) -> dict[cst.CSTNode, CodeRange]:
        """The ranges of `nodes` (those that have one)."""
        found = {}
        for node in nodes:
            ranges = self._ranges_around(node)
            if node in ranges:
                found[node] = ranges[node]
        return found

    def _ranges_around(self, node: cst.CSTNode) -> dict[cst.CSTNode, CodeRange]:
        """The ranges of the nodes of the top-level statement that holds `node`."""
        module, top = self.module, node
        while (parent := self._parent_of(top)) is not None and parent is not module:
            top = parent
        if parent is not module:  # the module itself, or a node outside its statements: generate it all
            if self._whole is None:
                self._whole = _generate(module, module, 1)
            return self._whole
        ranges = self._by_statement.get(id(top))
        if ranges is None:
            if self._first_lines is None:
                self._first_lines = statement_lines(module)
            ranges = self._by_statement[id(top)] = _generate(module, top, self._first_lines[id(top)])
        return ranges


def statement_lines(module: cst.Module) -> dict[int, int]:
    """id(top-level statement) -> its first line (its leading comments and blank lines included)."""
    lines = {}
    row = 1 + len(module.header)  # one line each
    for statement in module.body:
        lines[id(statement)] = row
        code = module.code_for_node(statement)
        row += code.count("\n") + code.count("\r") - code.count("\r\n")
    return lines


def _generate(module: cst.Module, node: cst.CSTNode, line: int) -> dict[cst.CSTNode, CodeRange]:
    """The ranges of `node` and everything in it, `node` starting at the beginning of `line`."""
    provider = PositionProvider()
    state = _State(default_indent=module.default_indent, default_newline=module.default_newline, provider=provider)
    state.line = line
    node._codegen(state)
    return provider._computed
