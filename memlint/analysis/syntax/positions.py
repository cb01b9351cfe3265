"""Source positions for the few nodes that are reported or named in a message.

LibCST's PositionProvider visits the whole tree and then generates the whole
module's code, which costs about five times the parse for a large file. The
nodes asked about are few, so generate code, with cheap position bookkeeping,
only of the innermost statements of a block that hold them, each from its first
line (analysis/syntax/statement_lines.py: from `ast`, checked against the text) and
only as far as the last node asked about, and skip the visit: a finding's
position costs what its statement costs, wherever it is in the file.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Callable, Iterable

import libcst as cst
from libcst._add_slots import add_slots
from libcst._nodes.internal import CodegenState
from libcst._position import CodePosition, CodeRange
from libcst.metadata.position_provider import NEWLINE_RE

from memlint.analysis.syntax.statement_lines import StatementLines


class _Done(Exception):
    """Every node asked about in a statement has its range: stop generating its code."""


Span = tuple[int, int, int, int]  # start line, start column, end line, end column


class _Syntactic:
    """LibCST's `record_syntactic_position` (a node's range without the whitespace it owns)
    without a generator: it runs for every expression and most statements."""

    __slots__ = ("state", "node", "start_node", "end_node", "start")

    def __init__(self, state: "_State", node: cst.CSTNode, start_node: cst.CSTNode | None, end_node: cst.CSTNode | None):
        self.state, self.node, self.start_node, self.end_node = state, node, start_node, end_node

    def __enter__(self) -> None:
        self.start = (self.state.line, self.state.column)

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> bool:
        if kind is not None:  # stopped (`_Done`): the nodes still open get no range
            return False
        state, spans = self.state, self.state.spans
        start = spans[id(self.start_node)][:2] if self.start_node is not None else self.start
        end = spans[id(self.end_node)][2:] if self.end_node is not None else (state.line, state.column)
        spans[id(self.node)] = start + end
        return False


@add_slots
@dataclass(frozen=False)
class _State(CodegenState):
    """LibCST's `PositionProvidingCodegenState`, counting lines and columns without keeping the
    generated text, with plain tuples for positions (LibCST's frozen dataclasses cost more than
    the generation itself), and stopping (`_Done`) once the nodes of `wanted` (ids) have theirs."""

    line: int = 1  # 1-based
    column: int = 0  # 0-based
    spans: dict[int, Span] = field(default_factory=dict)  # id(node) -> its range
    starts: list[tuple[int, int]] = field(default_factory=list)  # where each node being generated began
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

    def before_codegen(self, node: cst.CSTNode) -> None:
        self.starts.append((self.line, self.column))

    def after_codegen(self, node: cst.CSTNode) -> None:
        start = self.starts.pop()
        key = id(node)
        if key not in self.spans:  # a range from `record_syntactic_position` stays
            self.spans[key] = start + (self.line, self.column)
        wanted = self.wanted
        if wanted is not None and key in wanted:
            wanted.discard(key)
            if not wanted:
                raise _Done

    def record_syntactic_position(
        self, node: cst.CSTNode, *, start_node: cst.CSTNode | None = None, end_node: cst.CSTNode | None = None
    ) -> _Syntactic:
        return _Syntactic(self, node, start_node, end_node)


class Positions:
    """Source ranges of one module's nodes, generating with position bookkeeping only the code of the
    statements that hold the nodes asked about.

    Each node's code is generated from the innermost statement of an indented block that holds it,
    where `text` (the text the module was parsed from) says where that starts, else from its
    top-level statement. `first_lines` (id(top-level statement) -> first line) comes from an
    incremental parser that knows it; otherwise from `text`, or, without one or where `ast`
    disagrees with LibCST, from one plain generation of the module's code."""

    def __init__(
        self,
        module: cst.Module,
        parent_of: Callable[[cst.CSTNode], cst.CSTNode | None],
        first_lines: dict[int, int] | None = None,
        text: str | None = None,
        parsed: ast.Module | None = None,
    ) -> None:
        """`parsed`: CPython's parse of `text`, where the caller has one (for the statements' lines)."""
        self.module = module
        self._parsed = parsed
        self._parent_of = parent_of
        self._first_lines = first_lines
        self._text = text
        self._lines: StatementLines | None = None
        # id(statement) -> (the ranges of its nodes generated so far, whether that is all of them)
        self._by_statement: dict[int, tuple[dict[int, Span], bool]] = {}
        self._starts: dict[int, tuple[int, list[str]] | None] = {}  # id(statement) -> (first line, indentation)
        self._whole: dict[int, Span] | None = None

    def first_lines(self) -> dict[int, int]:
        """id(top-level statement) -> its first line (its leading comments and blank lines included)."""
        if self._first_lines is None:
            lines = self._statement_lines()
            self._first_lines = (lines.top_level() if lines is not None else None) or statement_lines(self.module)
        return self._first_lines

    def range_of(self, node: cst.CSTNode, within: cst.CSTNode | None = None) -> CodeRange:
        """Where `node` is (1-based lines, 0-based columns); KeyError for a node without a range.
        `within`: a node the analysis walk knows that holds `node`, for punctuation the walk
        leaves out (an expression's parentheses)."""
        return _range(self._spans_around(self._anchor(within if within is not None else node), {id(node)})[id(node)])

    def ranges(self, nodes: Iterable[cst.CSTNode]) -> dict[cst.CSTNode, CodeRange]:
        """The ranges of `nodes` (those that have one)."""
        by_anchor: dict[int, tuple[cst.CSTNode, list[cst.CSTNode]]] = {}
        for node in nodes:
            anchor = self._anchor(node)
            by_anchor.setdefault(id(anchor), (anchor, []))[1].append(node)
        found = {}
        for anchor, wanted in by_anchor.values():
            spans = self._spans_around(anchor, {id(node) for node in wanted})
            found.update((node, _range(spans[id(node)])) for node in wanted if id(node) in spans)
        return found

    def _statement_lines(self) -> StatementLines | None:
        if self._lines is None and self._text is not None:
            self._lines = StatementLines(self.module, self._text, self._parent_of, self._parsed, self._first_lines)
            self._text = self._parsed = None  # held by the `ast` rows now
        return self._lines

    def _anchor(self, node: cst.CSTNode) -> cst.CSTNode:
        """The statement whose code is generated for `node`: the innermost statement of an indented
        block holding it, where its start is known; else its top-level statement; the module for
        the module itself or a node outside its statements."""
        module, current, inner = self.module, node, None
        blocks: list[cst.IndentedBlock | cst.Match] = []  # what indents `inner`, innermost first
        while (parent := self._parent_of(current)) is not None and parent is not module:
            if inner is None:
                if isinstance(parent, cst.IndentedBlock):
                    inner = current
                    blocks.append(parent)
            elif isinstance(parent, (cst.IndentedBlock, cst.Match)):  # a match indents its cases
                blocks.append(parent)
            current = parent
        if parent is not module:
            return module
        if inner is not None and self._start(inner, blocks) is not None:
            return inner
        return current

    def _start(self, statement: cst.CSTNode, blocks: list[cst.IndentedBlock | cst.Match]) -> tuple[int, list[str]] | None:
        """First line and indentation tokens of `statement`, a statement of the innermost of `blocks`
        (those that indent it, innermost first)."""
        key = id(statement)
        if key not in self._starts:
            lines = self._statement_lines()
            default = self.module.default_indent
            indent = [default if block.indent is None else block.indent for block in reversed(blocks)]
            line = lines.first_line(statement, "".join(indent)) if lines is not None else None  # type: ignore[arg-type]
            self._starts[key] = (line, indent) if line is not None else None
        return self._starts[key]

    def _spans_around(self, anchor: cst.CSTNode, wanted: set[int]) -> dict[int, Span]:
        """Ranges of the nodes of `anchor` (a statement from `_anchor`), those of `wanted` (ids) among them.
        A statement's code is generated up to the last node of `wanted` the first time, and whole
        the second time a node past that is asked for."""
        module = self.module
        if anchor is module:
            if self._whole is None:
                self._whole = _generate(module, module, 1)[0]
            return self._whole
        spans, complete = self._by_statement.get(id(anchor), (None, False))
        if spans is not None and (complete or wanted <= spans.keys()):
            return spans
        start = self._starts.get(id(anchor))
        line, indent = start if start is not None else (self.first_lines()[id(anchor)], [])
        # a second time: the whole statement, so that no statement is generated more than twice
        spans, complete = _generate(module, anchor, line, indent, set(wanted) if spans is None else None)
        self._by_statement[id(anchor)] = spans, complete
        return spans


class SpanPositions:
    """Positions of a light tree's nodes (analysis/syntax/light.py): the ranges its translator
    took from `ast`, with the part of `Positions`' interface analyses use (findings and fixes
    are built from LibCST's tree)."""

    def __init__(self, spans: dict[int, Span]) -> None:
        self._spans = spans

    def range_of(self, node: cst.CSTNode, within: cst.CSTNode | None = None) -> CodeRange:
        return _range(self._spans[id(node)])

    def ranges(self, nodes: Iterable[cst.CSTNode]) -> dict[cst.CSTNode, CodeRange]:
        spans = self._spans
        return {node: _range(spans[id(node)]) for node in nodes if id(node) in spans}


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


def _range(span: Span) -> CodeRange:
    return CodeRange(CodePosition(span[0], span[1]), CodePosition(span[2], span[3]))


def _generate(
    module: cst.Module, node: cst.CSTNode, line: int, indent: list[str] | None = None, wanted: set[int] | None = None
) -> tuple[dict[int, Span], bool]:
    """The ranges of `node` and everything in it, `node` starting at the beginning of `line` in a
    block indented by `indent` (tokens, outermost first), and whether that is all of them: with
    `wanted` (ids of nodes in `node`), generation stops once those have theirs."""
    state = _State(
        default_indent=module.default_indent,
        default_newline=module.default_newline,
        indent_tokens=list(indent or ()),
        line=line,
        wanted=wanted,
    )
    try:
        node._codegen(state)
    except _Done:
        return state.spans, False
    return state.spans, True
