"""Re-parse only the top-level statements an edit touches.

An editor changes a few lines at a time; parsing a 2,000-line module again
costs most of a lint. The parser keeps the last module with the text span of
each top-level statement; for a new text it finds the changed region, parses
just the top-level statements around it as a module of their own, and splices
them into the previous module. A top-level statement starts at column 0 after
a complete line, so it parses the same on its own as in its module; whatever
does not fit that picture (an edit of the module's leading or trailing lines,
a changed indentation style, a chunk that does not parse, a text without a
final line break) falls back to a full parse, which also reports syntax errors
exactly as `memlint` does. The result is a module equal to a full parse of the
new text (tests/test_server_incremental.py checks `deep_equals` on edits).

`statement_lines` gives each top-level statement's first line, so that source
positions are computed from the statements that hold findings only
(analysis/syntax/positions.py), not by generating the module's code up to them.
"""

from __future__ import annotations

from typing import Collection

import libcst as cst

from memlint.analysis.syntax.tree import Tree
from memlint.parsing import parse_module
from memlint.server.statements import StatementFindings


class IncrementalParser:
    def __init__(self) -> None:
        self.text: str | None = None
        self.module: cst.Module | None = None
        self.spans: list[tuple[int, int]] | None = None  # [start, end) offset of each top-level statement
        self.statement_lines: dict[int, int] | None = None  # id(statement) -> its first line (1-based)
        self.full_parses = 0  # how often the whole text was parsed (the tests watch the fast path)
        self._tree: Tree | None = None
        self.statements: StatementFindings | None = StatementFindings(lambda m: self.spans if m is self.module else None)
        self.summary_parts: Collection[str] | None = None  # the server asks for its own parts while typing

    def tree(self, module: cst.Module) -> Tree:
        """The analysis walk of `module`, reusing that of the statements it shares with the last one."""
        if self._tree is None or self._tree.module is not module:
            self._tree = Tree(module, self._tree)
        return self._tree

    def parse(self, text: str) -> cst.Module:
        """The module of `text`; raises what `libcst.parse_module` raises for a text that does not parse."""
        if text == self.text and self.module is not None:
            return self.module
        module = self._splice(text) if self.spans is not None else None
        if module is None:
            module = self._full(text)
        return module

    def _full(self, text: str) -> cst.Module:
        self.text = self.module = self.spans = self.statement_lines = None
        module = parse_module(text)
        self.full_parses += 1
        header = "".join(module.code_for_node(line) for line in module.header)
        footer = "".join(module.code_for_node(line) for line in module.footer)
        codes = [module.code_for_node(statement) for statement in module.body]
        spans: list[tuple[int, int]] | None = []
        offset = len(header)
        for code in codes:
            spans.append((offset, offset + len(code)))
            offset += len(code)
        if not module.has_trailing_newline or header + "".join(codes) + footer != text:
            spans = None  # a text without a final line break: LibCST adds one; parse it whole every time
        self._keep(text, module, spans)
        return module

    def _splice(self, text: str) -> cst.Module | None:
        old, module, spans = self.text, self.module, self.spans
        assert old is not None and module is not None and spans is not None
        prefix = _common_prefix(old, text)
        suffix = _common_prefix(old[prefix:][::-1], text[prefix:][::-1])
        # The statements the change touches, and their neighbours when it touches a boundary.
        low, high = prefix - 1, len(old) - suffix + 1
        touched = [i for i, (start, end) in enumerate(spans) if start < high and end > low]
        if not touched or low < spans[0][0] or high > spans[-1][1]:
            return None  # the module's leading or trailing lines
        first, last = touched[0], touched[-1]
        shift = len(text) - len(old)
        start, end = spans[first][0], spans[last][1] + shift
        chunk = text[start:end]
        try:
            part = parse_module(chunk)
        except Exception:  # noqa: BLE001 - any trouble: the full parse decides, and reports it
            return None
        compound = any(not isinstance(s, cst.SimpleStatementLine) for s in part.body)
        if (
            not part.body
            or part.footer
            or (part.header and first == 0)
            or not part.has_trailing_newline
            or part.default_newline != module.default_newline
            or (compound and part.default_indent != module.default_indent)
        ):
            return None
        body = list(part.body)
        if part.header:  # leading comments and blank lines belong to the first statement in a module
            body[0] = body[0].with_changes(leading_lines=(*part.header, *body[0].leading_lines))
        new = module.with_changes(body=(*module.body[:first], *body, *module.body[last + 1 :]))
        codes = [new.code_for_node(statement) for statement in body]
        if "".join(codes) != chunk:
            return None
        new_spans = spans[:first]
        offset = start
        for code in codes:
            new_spans.append((offset, offset + len(code)))
            offset += len(code)
        new_spans.extend((s + shift, e + shift) for s, e in spans[last + 1 :])
        self._keep(text, new, new_spans)
        return new

    def _keep(self, text: str, module: cst.Module, spans: list[tuple[int, int]] | None) -> None:
        self.text, self.module, self.spans = text, module, spans
        if spans is None:
            self.statement_lines = None
            return
        lines = {}
        row, counted = 1, 0
        for statement, (start, _) in zip(module.body, spans):
            row += _line_breaks(text, counted, start)
            counted = start
            lines[id(statement)] = row
        self.statement_lines = lines


def _line_breaks(text: str, start: int, end: int) -> int:
    part = text[start:end]
    return part.count("\n") + part.count("\r") - part.count("\r\n")


def _common_prefix(a: str, b: str) -> int:
    """The length of the longest common prefix, comparing halves (string comparison runs in C)."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        if a[low:middle] == b[low:middle]:
            low = middle
        else:
            high = middle - 1
    return low
