"""Source positions for the few nodes that are reported or named in a message.

LibCST's PositionProvider visits the whole tree and then generates the whole
module's code, which costs about five times the parse for a large file. The
nodes asked about are few, so generate code, with cheap position bookkeeping,
only of the top-level statements that hold them, each from its first line and
only as far as the last node asked about, and skip the visit. Where each
top-level statement starts comes from `ast` (a tenth of a plain generation of
the module's code), checked against the text.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Callable, Iterable

import libcst as cst
from libcst._position import CodePosition, CodeRange
from libcst.metadata.position_provider import (
    NEWLINE_RE,
    PositionProvider,
    PositionProvidingCodegenState,
)


class _Done(Exception):
    """Every node asked about in a statement has its range: stop generating its code."""


class _Syntactic:
    """LibCST's `record_syntactic_position` without a generator: it runs for every expression
    and most statements, and a generator-based context manager is most of its cost."""

    __slots__ = ("state", "node", "start_node", "end_node", "start")

    def __init__(self, state: "_State", node: cst.CSTNode, start_node: cst.CSTNode | None, end_node: cst.CSTNode | None):
        self.state, self.node, self.start_node, self.end_node = state, node, start_node, end_node

    def __enter__(self) -> None:
        self.start = CodePosition(self.state.line, self.state.column)

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> bool:
        if kind is not None:  # stopped (`_Done`): the nodes still open get no range
            return False
        state, computed = self.state, self.state.provider._computed
        start = computed[self.start_node].start if self.start_node is not None else self.start
        end = computed[self.end_node].end if self.end_node is not None else CodePosition(state.line, state.column)
        computed[self.node] = CodeRange(start, end)
        return False


@dataclass(frozen=False)
class _State(PositionProvidingCodegenState):
    """Counts lines and columns without keeping the generated text, and stops (`_Done`) once the
    nodes of `wanted` (ids) have their ranges."""

    wanted: set[int] | None = None

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

    def record_syntactic_position(
        self, node: cst.CSTNode, *, start_node: cst.CSTNode | None = None, end_node: cst.CSTNode | None = None
    ) -> _Syntactic:
        return _Syntactic(self, node, start_node, end_node)

    def after_codegen(self, node: cst.CSTNode) -> None:
        super().after_codegen(node)
        wanted = self.wanted
        if wanted is not None and id(node) in wanted:
            wanted.discard(id(node))
            if not wanted:
                raise _Done


class Positions:
    """Source ranges of one module's nodes, generating with position bookkeeping only the code of the
    top-level statements that hold the nodes asked about, each from its first line.

    `first_lines` (id(top-level statement) -> first line) comes from an incremental parser that
    knows it; otherwise it is computed on first use from `text` (the text the module was parsed
    from) with `ast`, or, without a text or where `ast` disagrees, by one plain generation of the
    module's code."""

    def __init__(
        self,
        module: cst.Module,
        parent_of: Callable[[cst.CSTNode], cst.CSTNode | None],
        first_lines: dict[int, int] | None = None,
        text: str | None = None,
    ) -> None:
        self.module = module
        self._parent_of = parent_of
        self._first_lines = first_lines
        self._text = text
        # id(statement) -> (the ranges of its nodes generated so far, whether that is all of them)
        self._by_statement: dict[int, tuple[dict[cst.CSTNode, CodeRange], bool]] = {}
        self._whole: dict[cst.CSTNode, CodeRange] | None = None

    def first_lines(self) -> dict[int, int]:
        """id(top-level statement) -> its first line (its leading comments and blank lines included)."""
        if self._first_lines is None:
            self._first_lines = (first_lines_from_text(self.module, self._text) if self._text is not None else None) or (
                statement_lines(self.module)
            )
            self._text = None  # not needed any more
        return self._first_lines

    def range_of(self, node: cst.CSTNode, within: cst.CSTNode | None = None) -> CodeRange:
        """Where `node` is (1-based lines, 0-based columns); KeyError for a node without a range.
        `within`: a node the analysis walk knows that holds `node`, for punctuation the walk
        leaves out (an expression's parentheses)."""
        holder = within if within is not None else node
        return self._ranges_around(self._top(holder), {node})[node]

    def ranges(self, nodes: Iterable[cst.CSTNode]) -> dict[cst.CSTNode, CodeRange]:
        """The ranges of `nodes` (those that have one)."""
        by_top: dict[int, tuple[cst.CSTNode, set[cst.CSTNode]]] = {}
        for node in nodes:
            top = self._top(node)
            by_top.setdefault(id(top), (top, set()))[1].add(node)
        found = {}
        for top, wanted in by_top.values():
            ranges = self._ranges_around(top, wanted)
            found.update((node, ranges[node]) for node in wanted if node in ranges)
        return found

    def _top(self, node: cst.CSTNode) -> cst.CSTNode:
        """The top-level statement that holds `node`; the module for the module itself or a node
        outside its statements."""
        module, top = self.module, node
        while (parent := self._parent_of(top)) is not None and parent is not module:
            top = parent
        return top if parent is module else module

    def _ranges_around(self, top: cst.CSTNode, wanted: set[cst.CSTNode]) -> dict[cst.CSTNode, CodeRange]:
        """Ranges of the nodes of the top-level statement `top`, those of `wanted` among them.
        A statement's code is generated up to the last node of `wanted` the first time, and whole
        the second time a node past that is asked for."""
        module = self.module
        if top is module:
            if self._whole is None:
                self._whole = _generate(module, module, 1)[0]
            return self._whole
        ranges, complete = self._by_statement.get(id(top), (None, False))
        if ranges is not None and (complete or all(node in ranges for node in wanted)):
            return ranges
        line = self.first_lines()[id(top)]
        # a second time: the whole statement, so that no statement is generated more than twice
        ranges, complete = _generate(module, top, line, {id(node) for node in wanted} if ranges is None else None)
        self._by_statement[id(top)] = ranges, complete
        return ranges


def statement_lines(module: cst.Module) -> dict[int, int]:
    """id(top-level statement) -> its first line (its leading comments and blank lines included),
    by generating the module's code."""
    lines = {}
    row = 1 + len(module.header)  # one line each
    for statement in module.body:
        lines[id(statement)] = row
        code = module.code_for_node(statement)
        row += code.count("\n") + code.count("\r") - code.count("\r\n")
    return lines


_BLANK_OR_COMMENT = re.compile(r"[ \t\f]*(#.*)?")


def first_lines_from_text(module: cst.Module, text: str) -> dict[int, int] | None:
    """`statement_lines` from `ast`'s positions in `text`, the text `module` was parsed from; None
    where the two parsers do not line up (a syntax `ast` does not know, a decorator whose `@` is not
    on its expression's line), for `statement_lines` to decide.

    A statement starts with its leading lines (one comment or blank line each) and then its first
    token, at column 0, where `ast` puts the statement (or its first decorator); the lines between
    the end of the previous statement and that token must be comments or blank."""
    try:
        parsed = ast.parse(text).body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    rows = NEWLINE_RE.split(text)  # rows[i] is line i + 1
    lines: dict[int, int] = {}
    index = 0  # into `parsed`
    previous_end = len(module.header)  # the last line of the previous statement's own tokens
    for statement in module.body:
        count = len(statement.body) if isinstance(statement, cst.SimpleStatementLine) else 1
        group = parsed[index : index + count]
        if len(group) != count:
            return None
        index += count
        leading = len(statement.leading_lines)
        decorators = getattr(statement, "decorators", ())
        if decorators:
            token_row, token = group[0].decorator_list[0].lineno, "@"  # type: ignore[attr-defined]
            leading += len(decorators[0].leading_lines)
        else:
            token_row, token = group[0].lineno, None
            leading += len(getattr(statement, "lines_after_decorators", ()))
        first = token_row - leading
        if first <= previous_end or token_row > len(rows) or group[0].col_offset != 0:
            return None
        code = rows[token_row - 1]
        if not code or code[0] in " \t\f#" or (token is not None and not code.startswith(token)):
            return None
        if not all(_BLANK_OR_COMMENT.fullmatch(row) for row in rows[previous_end : token_row - 1]):
            return None
        lines[id(statement)] = first
        previous_end = max(s.end_lineno or s.lineno for s in group)
    if index != len(parsed) or (module.body and lines[id(module.body[0])] != 1 + len(module.header)):
        return None
    return lines


def _generate(
    module: cst.Module, node: cst.CSTNode, line: int, wanted: set[int] | None = None
) -> tuple[dict[cst.CSTNode, CodeRange], bool]:
    """The ranges of `node` and everything in it, `node` starting at the beginning of `line`, and
    whether that is all of them: with `wanted` (ids of nodes in `node`), generation stops once
    those have theirs."""
    provider = PositionProvider()
    state = _State(
        default_indent=module.default_indent, default_newline=module.default_newline, provider=provider, wanted=wanted
    )
    state.line = line
    try:
        node._codegen(state)
    except _Done:
        return provider._computed, False
    return provider._computed, True
