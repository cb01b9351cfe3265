"""The source text of a light tree's nodes, for `expressions.code`.

A light tree (analysis/syntax/light.py) has LibCST's node classes built from `ast`, with
whitespace left at its defaults: generating its code gives valid but normalized text
(`f(a,b)` for `f(a, b)`), not what the user wrote. While the engine analyses a light tree
it names the text and the ranges the tree was built from (`as_written`), and `text_of`
slices a node's code from them. Per thread: the language server analyses full trees on two.
"""

from __future__ import annotations

import re
import threading
from itertools import accumulate
from contextlib import contextmanager
from typing import Iterator

import libcst as cst

Span = tuple[int, int, int, int]  # start line (1-based), start column (0-based), end line, end column

_NEWLINE = re.compile(r"\r\n|\r|\n")
_local = threading.local()


class _Source:
    __slots__ = ("text", "spans", "_starts")

    def __init__(self, text: str, spans: dict[int, Span]) -> None:
        self.text = text
        self.spans = spans
        self._starts: list[int] | None = None

    def offset(self, line: int, column: int) -> int:
        starts = self._starts
        if starts is None:
            starts = self._starts = _line_starts(self.text)
        return starts[line - 1] + column

    def slice(self, node: cst.CSTNode, span: Span) -> str:
        text = self.text
        start, end = self.offset(span[0], span[1]), self.offset(span[2], span[3])
        # A range leaves out the node's own parentheses (LibCST's syntactic position); its code has them.
        parens = len(getattr(node, "lpar", ()))
        for _ in range(parens):
            before = _skip_back(text, start)
            after = _skip_forward(text, end)
            if before == 0 or text[before - 1] != "(" or after >= len(text) or text[after] != ")":
                inner = text[start:end]
                return "(" * parens + inner + ")" * parens if inner else inner
            start, end = before - 1, after + 1
        return text[start:end]


def _line_starts(text: str) -> list[int]:
    """The offset of each line's first character, lines split as the parser splits them."""
    if "\r" in text:
        return [0, *(match.end() for match in _NEWLINE.finditer(text))]
    # (the common case in C: a line starts one past the previous one's end)
    return list(accumulate(map((1).__add__, map(len, text.split("\n")[:-1])), initial=0))


def _skip_back(text: str, index: int) -> int:
    while index > 0 and text[index - 1] in " \t\r\n\\\f":
        index -= 1
    return index


def _skip_forward(text: str, index: int) -> int:
    while index < len(text) and text[index] in " \t\r\n\\\f":
        index += 1
    return index


@contextmanager
def as_written(text: str, spans: dict[int, Span]) -> Iterator[None]:
    """While in this block, `text_of` answers for the nodes of `spans` (from `text`)."""
    previous = getattr(_local, "source", None)
    _local.source = _Source(text, spans)
    try:
        yield
    finally:
        _local.source = previous


def text_of(node: cst.CSTNode) -> str | None:
    """`node`'s code as written, for a node of the light tree being analysed; else None."""
    source = getattr(_local, "source", None)
    if source is None:
        return None
    span = source.spans.get(id(node))
    return source.slice(node, span) if span is not None else None


def source_lines(text: str) -> list[str]:
    """`text` split into lines as Python's tokenizer splits them (not `str.splitlines`, which also
    splits at form feeds and Unicode separators)."""
    return _NEWLINE.split(text)


__all__ = ["Span", "as_written", "source_lines", "text_of"]
