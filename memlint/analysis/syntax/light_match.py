"""`match` statements of a light tree (light.py): `ast` patterns as LibCST's Match* nodes.

LibCST splits `ast`'s MatchSequence by its brackets (MatchList for `[...]` and for a bare `a, b`,
MatchTuple for `(...)`), keeps the parentheses around a pattern in its `lpar` (a value pattern's
are its expression's), and a Name for every captured name, placed from the text.
"""

from __future__ import annotations

import ast
import re

import libcst as cst

from memlint.analysis.syntax import light_nodes as N
from memlint.analysis.syntax.light_expressions import ExpressionTranslator, _outer_end
from memlint.analysis.syntax.light_source import Untranslated

_SET = object.__setattr__
_SINGLETONS = {None: "None", True: "True", False: "False"}
_IDENTIFIER_BEFORE = re.compile(r"(\w+)[ \t]*=[ \t]*$")


def pattern(self: ExpressionTranslator, node: ast.pattern) -> cst.MatchPattern:
    """`node` as LibCST's pattern, with the parentheses around it."""
    source = self.source
    start = source.offset(node.lineno, node.col_offset)
    end = source.offset(node.end_lineno, node.end_col_offset)  # type: ignore[arg-type]
    kind = type(node)
    if kind is ast.MatchValue:  # its parentheses are its expression's (MatchValue.lpar reads them)
        return N.MatchValue(self.expr(node.value))  # type: ignore[attr-defined]
    handler = _PATTERNS.get(kind)
    if handler is None:
        raise Untranslated(kind.__name__)
    result, own = handler(self, node, start, end)
    opened = source.opening(start, node.lineno)
    count = own + (source.closing(end, opened)[0] if opened else 0)
    if count:
        target = result.value if kind is ast.MatchSingleton else result
        lpar, rpar = N.parens(count)
        _SET(target, "lpar", lpar)
        _SET(target, "rpar", rpar)
    return result


def _singleton(self: ExpressionTranslator, node: ast.MatchSingleton, start: int, end: int) -> tuple:
    name = self.name_at(_SINGLETONS[node.value], start)
    return N.MatchSingleton(name), 0


def _elements(self: ExpressionTranslator, patterns: list[ast.pattern]) -> list:
    elements = []
    for item in patterns:
        if type(item) is ast.MatchStar:
            name = None
            if item.name is not None:
                item_end = self.source.offset(item.end_lineno, item.end_col_offset)  # type: ignore[arg-type]
                name = self.name_at(item.name, item_end - len(item.name))
            elements.append(N.MatchStar(name))
        else:
            elements.append(N.MatchSequenceElement(pattern(self, item)))
    return elements


def _sequence(self: ExpressionTranslator, node: ast.MatchSequence, start: int, end: int) -> tuple:
    text = self.text
    if text[start] == "[":
        return N.MatchList(_elements(self, node.patterns), N.LeftSquareBracket(), N.RightSquareBracket()), 0
    own = text[start] == "(" and (not node.patterns or _outer_end(self.source, node.patterns[-1]) < end)
    if own:
        return N.MatchTuple(_elements(self, node.patterns)), 1
    return N.MatchList(_elements(self, node.patterns), None, None), 0


def _mapping(self: ExpressionTranslator, node: ast.MatchMapping, start: int, end: int) -> tuple:
    elements = [
        N.MatchMappingElement(self.expr(key), pattern(self, value)) for key, value in zip(node.keys, node.patterns)
    ]
    rest = None
    if node.rest is not None:
        found = self.text.rfind("**", start, end)
        if found < 0:
            raise Untranslated("mapping rest")
        rest = self.find_name(node.rest, found + 2)[0]
    return N.MatchMapping(elements, rest), 0


def _class(self: ExpressionTranslator, node: ast.MatchClass, start: int, end: int) -> tuple:
    cls = self.expr(node.cls)
    patterns = [N.MatchSequenceElement(pattern(self, item)) for item in node.patterns]
    keywords = []
    for key, item in zip(node.kwd_attrs, node.kwd_patterns):
        item_start = self.source.offset(item.lineno, item.col_offset)
        opened = self.source.opening(item_start, item.lineno)
        if opened:
            item_start = self.source.opening_at(item_start, item.lineno, opened)
        line_start = self.source.starts[self.source.position(item_start)[0] - 1]
        match = _IDENTIFIER_BEFORE.search(self.text, line_start, item_start)
        if match is None or match.group(1) != key:
            raise Untranslated("class pattern keyword")
        keywords.append(N.MatchKeywordElement(self.name_at(key, match.start(1)), pattern(self, item)))
    return N.MatchClass(cls, patterns, keywords), 0


def _as(self: ExpressionTranslator, node: ast.MatchAs, start: int, end: int) -> tuple:
    if node.name is None:
        if node.pattern is not None:
            raise Untranslated("pattern as nothing")
        return N.MatchAs(None, None), 0
    inner = pattern(self, node.pattern) if node.pattern is not None else None
    name = self.name_at(node.name, end - len(node.name))
    return N.MatchAs(inner, name), 0


def _or(self: ExpressionTranslator, node: ast.MatchOr, start: int, end: int) -> tuple:
    last = len(node.patterns) - 1
    elements = [
        N.MatchOrElement(pattern(self, item), N.BitOr() if index < last else N.DEFAULT)
        for index, item in enumerate(node.patterns)
    ]
    return N.MatchOr(elements), 0


_PATTERNS = {
    ast.MatchSingleton: _singleton,
    ast.MatchSequence: _sequence,
    ast.MatchMapping: _mapping,
    ast.MatchClass: _class,
    ast.MatchAs: _as,
    ast.MatchOr: _or,
}
