"""Where LibCST's statements start, from `ast`'s positions in the text the module was parsed from.

Positions (analysis/syntax/positions.py) generate a statement's code from its first line; finding that
line by generating the code before it costs as much as the code before it. `ast.parse` costs a
tenth of a plain code generation and knows every statement's first token; a LibCST statement
starts with its leading lines (one comment or blank line each), then that token. The two trees
are matched statement by statement through the blocks that hold them (LibCST's `a; b` line is
two statements for `ast`, an `elif` is an `If` in the `orelse` of another), and every answer is
checked against the text: the token is where `ast` says, at the block's indentation, after
lines that are comments or blank. Anything that does not line up (a syntax `ast` does not know,
a decorator whose `@` is not on its expression's line, a form feed before a statement) is None,
for the caller to generate the code instead.
"""

from __future__ import annotations

import ast
import re
from typing import Callable

import libcst as cst
from libcst.metadata.position_provider import NEWLINE_RE

from memlint.parsing import python_ast

_KINDS: dict[type, tuple[type, ...]] = {
    cst.FunctionDef: (ast.FunctionDef, ast.AsyncFunctionDef),
    cst.ClassDef: (ast.ClassDef,),
    cst.If: (ast.If,),
    cst.For: (ast.For, ast.AsyncFor),
    cst.While: (ast.While,),
    cst.With: (ast.With, ast.AsyncWith),
    cst.Try: (ast.Try,),
    cst.TryStar: (ast.TryStar,),
    cst.Match: (ast.Match,),
}
_COMPOUND = tuple(kind for kinds in _KINDS.values() for kind in kinds)
_BLANK_OR_COMMENT = re.compile(r"[ \t\f]*(#.*)?")


class StatementLines:
    """First lines of the statements of `module`, parsed from `text`."""

    def __init__(
        self,
        module: cst.Module,
        text: str,
        parent_of: Callable[[cst.CSTNode], cst.CSTNode | None],
        parsed: ast.Module | None = None,
        first_lines: dict[int, int] | None = None,
    ) -> None:
        """`parsed`: CPython's parse of `text` (`parsing.python_ast`), where the caller has one:
        parsing again costs a tenth of LibCST's parse. `first_lines`: id(top-level statement) -> its
        first line, where the caller knows them (a language server's incremental parser) and has no
        `parsed`: then only the top-level statements asked about are parsed, each on its own (after
        a one-line change to a 2,000-line file, parsing all of it was a fifth of the lint's CPU)."""
        self.module = module
        self._parent_of = parent_of
        self._first_lines = first_lines if parsed is None else None
        self._matched: dict[int, ast.stmt | None] = {}  # id(LibCST statement) -> its `ast` statement
        if self._first_lines is not None:
            self._body: list[ast.stmt] | None = []  # the module's statements, parsed one by one (`_match_top`)
            self._rows = NEWLINE_RE.split(text)
            self._next: dict[int, int] = {}  # id(top-level statement) -> the first line after it
            return
        try:
            self._body = (parsed if parsed is not None else python_ast(text)).body
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            self._body = None
        self._rows = NEWLINE_RE.split(text) if self._body is not None else []  # _rows[i] is line i + 1

    def top_level(self) -> dict[int, int] | None:
        """id(top-level statement) -> its first line, for every one of them; None where one is not known."""
        lines = {}
        for statement in self.module.body:
            line = self.first_line(statement, "")
            if line is None:
                return None
            lines[id(statement)] = line
        if self.module.body and lines[id(self.module.body[0])] != 1 + len(self.module.header):
            return None
        return lines

    def first_line(self, statement: cst.BaseStatement, indent: str) -> int | None:
        """The first line of `statement` (a statement of the module or of an indented block, whose
        lines start with `indent`), its leading lines included; None where `ast` cannot say."""
        found = self._match(statement)
        if found is None or found.col_offset != len(indent):  # the indentation is ASCII: bytes are characters
            return None
        leading = len(statement.leading_lines)
        decorators = getattr(statement, "decorators", ())
        if decorators:  # the first token is the first decorator's `@`
            token_row, token = found.decorator_list[0].lineno, "@"  # type: ignore[attr-defined]
            leading += len(decorators[0].leading_lines)
        else:
            token_row, token = found.lineno, None
            leading += len(getattr(statement, "lines_after_decorators", ()))
        first = token_row - leading
        if first < 1 or token_row > len(self._rows):
            return None
        code = self._rows[token_row - 1]
        if not code.startswith(indent) or len(code) == len(indent) or code[len(indent)] in " \t\f#":
            return None
        if token is not None and code[len(indent)] != token:
            return None
        if not all(_BLANK_OR_COMMENT.fullmatch(row) for row in self._rows[first - 1 : token_row - 1]):
            return None
        return first

    def _match(self, statement: cst.CSTNode) -> ast.stmt | None:
        """The `ast` statement of `statement`, a statement of the module or of an indented block."""
        key = id(statement)
        if key not in self._matched:
            block = self._parent_of(statement)
            if block is self.module and self._first_lines is not None:
                self._match_top(statement)
            elif block is self.module:
                self._match_block(self.module.body, self._body)
            elif type(block) is cst.IndentedBlock:
                self._match_block(block.body, self._suite(block))
            else:
                self._matched[key] = None
        return self._matched.get(key)

    def _match_top(self, statement: cst.CSTNode) -> None:
        """Match a top-level statement with `ast`'s parse of its own lines (`first_lines`)."""
        lines = self._first_lines
        if not self._next:
            body = self.module.body
            ends = [lines.get(id(after)) for after in body[1:]] + [len(self._rows) + 1]  # type: ignore[union-attr]
            self._next = {id(s): end for s, end in zip(body, ends) if end is not None}
        first, end = lines.get(id(statement)), self._next.get(id(statement))  # type: ignore[union-attr]
        parsed = None
        if first is not None and end is not None and first < end:
            try:
                parsed = python_ast("\n".join(self._rows[first - 1 : end - 1])).body
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                pass
        for node in parsed or ():
            ast.increment_lineno(node, first - 1)  # type: ignore[operator]
        self._match_block([statement], parsed)

    def _match_block(self, statements: tuple[cst.BaseStatement, ...] | list, parsed: list[ast.stmt] | None) -> None:
        """Match the statements of one block at once (asking for each in turn would be quadratic).
        Exact LibCST types: isinstance against their ABCs is a Python-level call when it fails."""
        index = 0
        for statement in statements:
            candidate = parsed[index] if parsed is not None and index < len(parsed) else None
            kinds = _KINDS.get(type(statement))
            if kinds is not None:
                same = isinstance(candidate, kinds)
            else:
                same = type(statement) is cst.SimpleStatementLine and isinstance(candidate, ast.stmt)
                same = same and not isinstance(candidate, _COMPOUND)
            self._matched[id(statement)] = candidate if same else None
            index += len(statement.body) if type(statement) is cst.SimpleStatementLine else 1

    def _suite(self, block: cst.IndentedBlock) -> list[ast.stmt] | None:
        """The `ast` statement list of `block`."""
        owner = self._parent_of(block)
        if isinstance(owner, (cst.Else, cst.Finally, cst.ExceptHandler, cst.ExceptStarHandler, cst.MatchCase)):
            holder = self._parent_of(owner)
            parsed = self._compound(holder) if holder is not None else None
            if parsed is None:
                return None
            if isinstance(owner, cst.Else):
                return getattr(parsed, "orelse", None)
            if isinstance(owner, cst.Finally):
                return getattr(parsed, "finalbody", None)
            clauses, parsed_clauses = (
                (holder.cases, getattr(parsed, "cases", None))  # type: ignore[union-attr]
                if isinstance(owner, cst.MatchCase)
                else (holder.handlers, getattr(parsed, "handlers", None))  # type: ignore[union-attr]
            )
            if parsed_clauses is None or len(parsed_clauses) != len(clauses):
                return None
            return next((p.body for c, p in zip(clauses, parsed_clauses) if c is owner), None)
        parsed = self._compound(owner) if owner is not None else None
        return getattr(parsed, "body", None)

    def _compound(self, node: cst.CSTNode) -> ast.stmt | None:
        """The `ast` statement of a compound statement: one of a block, or an `elif`."""
        parent = self._parent_of(node)
        if isinstance(node, cst.If) and isinstance(parent, cst.If) and parent.orelse is node:
            above = self._compound(parent)
            orelse = getattr(above, "orelse", None)
            return orelse[0] if orelse and len(orelse) == 1 and isinstance(orelse[0], ast.If) else None
        return self._match(node)
