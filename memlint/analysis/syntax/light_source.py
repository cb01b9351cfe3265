"""The source text as a light tree's translator (light.py) reads it: positions, parentheses, string tokens.

`ast` drops what LibCST keeps as nodes or counts: the parentheses around an expression, the parts of
an implicitly concatenated string, the pieces of an f-string. They are read back from the text
around `ast`'s positions. Between two tokens there is only a gap (spaces, line breaks, comments,
backslash continuations and punctuation); the scans here only ever walk such gaps, so they need
no tokenizer, except to tell a comment's `#` from one in a string on a line that has both.
Anything they cannot read with certainty raises `Untranslated`.
"""

from __future__ import annotations

import re
from bisect import bisect_right
import sys
from itertools import accumulate


class Untranslated(Exception):
    """The text holds something the light translation does not reproduce exactly."""


# One string token: prefix, then the quoted body (a backslash escapes the next character, in raw
# strings too, as far as where the token ends is concerned). Each body is a run of plain characters
# between escapes and lone quotes, matched as a run: one step per character cost a tenth of the
# light translation (docstrings).
STRING = re.compile(
    r"""([A-Za-z]{0,2})("""
    r'''"""[^"\\]*(?:(?:\\.|"(?!""))[^"\\]*)*"""'''
    r"""|'''[^'\\]*(?:(?:\\.|'(?!''))[^'\\]*)*'''"""
    r'''|"[^"\\\n]*(?:\\.[^"\\\n]*)*"'''
    r"""|'[^'\\\n]*(?:\\.[^'\\\n]*)*')""",
    re.S,
)
_PREFIXES = frozenset(("r", "u", "b", "br", "rb", "f", "fr", "rf"))  # Python 3.14's t-strings: untranslated
_NESTED_QUOTES = sys.version_info >= (3, 12)  # f"{d["key"]}" is valid from 3.12 on
_GAP = re.compile(r"(?:[ \t\f\r\n]|\\\r?\n|#[^\r\n]*)*")
_LINE_BREAK = re.compile(r"\r\n?|\n")
_TOKENS = re.compile(STRING.pattern + r"|(#)[^\r\n]*", re.S)  # for comment starts on lines with quotes


class Source:
    """Lines, character offsets and gap scans of one module's text."""

    __slots__ = ("text", "rows", "starts", "ascii", "_encoded", "_comments")

    def __init__(self, text: str) -> None:
        self.text = text
        self.rows = text.split("\n") if "\r" not in text else _LINE_BREAK.split(text)  # rows[i] is line i + 1
        starts = [0]
        if "\r" in text:
            starts.extend(match.end() for match in _LINE_BREAK.finditer(text))
        else:
            starts.extend(accumulate(map((1).__add__, map(len, self.rows[:-1]))))
        self.starts = starts
        self.ascii = text.isascii()
        self._encoded: dict[int, bytes] = {}
        self._comments: dict[int, int] | None = None

    def column(self, line: int, byte_column: int) -> int:
        """`ast`'s column (UTF-8 bytes) as characters."""
        if self.ascii:
            return byte_column
        encoded = self._encoded.get(line)
        if encoded is None:
            row = self.rows[line - 1]
            encoded = self._encoded[line] = row.encode("utf-8") if not row.isascii() else b""
        if not encoded:
            return byte_column
        return len(encoded[:byte_column].decode("utf-8", "strict"))

    def offset(self, line: int, byte_column: int) -> int:
        """The character offset in the text of `ast`'s (line, column)."""
        return self.starts[line - 1] + self.column(line, byte_column)

    def position(self, offset: int) -> tuple[int, int]:
        """(line, character column) of a character offset."""
        line = bisect_right(self.starts, offset)
        return line, offset - self.starts[line - 1]

    def opening(self, start: int, line: int) -> int:
        """How many `(` stand right before `start` (on `line`), across the gap."""
        return len(self._openings(start, line, 1 << 30))

    def opening_at(self, start: int, line: int, count: int) -> int:
        """The offset of the `count`th `(` right before `start` (counting outwards)."""
        return self._openings(start, line, count)[count - 1]

    def _openings(self, start: int, line: int, limit: int) -> list[int]:
        text = self.text
        index = start - 1
        found: list[int] = []
        while index >= 0 and len(found) < limit:
            char = text[index]
            if char == "(":
                found.append(index)
                index -= 1
            elif char == " " or char == "\t" or char == "\f" or char == "\\":
                index -= 1
            elif char == "\n" or char == "\r":
                line -= 1
                index = self._code_end(line) - 1
            else:
                break
        return found

    def closing(self, end: int, limit: int) -> tuple[int, int]:
        """(how many `)` stand right after `end`, across the gap, at most `limit`; the offset after the last)."""
        text = self.text
        size = len(text)
        index = end
        count = 0
        outer = end
        while index < size and count < limit:
            char = text[index]
            if char == ")":
                count += 1
                index += 1
                outer = index
            elif char in " \t\f\r\n\\":
                index += 1
            elif char == "#":
                index = text.find("\n", index)
                if index < 0:
                    break
            else:
                break
        return count, outer

    def _code_end(self, line: int) -> int:
        """Where the code of `line`, which ends in a gap, ends: before its comment."""
        row = self.rows[line - 1]
        if "#" not in row:
            return self.starts[line - 1] + len(row)
        if '"' not in row and "'" not in row:  # no string on the line: the first `#` starts the comment
            return self.starts[line - 1] + row.index("#")
        comments = self._comments
        if comments is None:
            comments = self._comments = {}
            for match in _TOKENS.finditer(self.text):
                if match.group(3) is not None:
                    comments[bisect_right(self.starts, match.start())] = match.start()
        return comments.get(line, self.starts[line - 1] + len(row))

    def gap_end(self, offset: int) -> int:
        """The end of the gap (spaces, line breaks, comments, continuations) starting at `offset`."""
        return _GAP.match(self.text, offset).end()  # type: ignore[union-attr]

    def string_tokens(self, start: int, end: int) -> list[tuple[int, int, str]]:
        """The string tokens of an `ast` string constant spanning [start, end): (start, end, prefix) each."""
        tokens = []
        text = self.text
        while True:
            match = STRING.match(text, start)
            if match is None or match.end() > end:
                raise Untranslated("string token")
            prefix = match.group(1)
            token_end = match.end()
            if prefix:
                if prefix.lower() not in _PREFIXES:
                    raise Untranslated("string prefix")
                if _NESTED_QUOTES and ("f" in prefix or "F" in prefix):
                    token_end = fstring_end(text, start + len(prefix), end)
            tokens.append((start, token_end, prefix))
            if token_end == end:
                return tokens
            start = _GAP.match(text, token_end).end()  # type: ignore[union-attr]
            if start >= end:
                raise Untranslated("string gap")


def fstring_end(text: str, quote_start: int, limit: int) -> int:
    """Where the f-string whose quote opens at `quote_start` ends, its replacement fields skipped
    whole: from Python 3.12 on (PEP 701) they may hold strings in the f-string's own quotes."""
    quote = text[quote_start : quote_start + 3]
    if quote not in ('"""', "'''"):
        quote = text[quote_start]
    index = quote_start + len(quote)
    while index < limit:
        char = text[index]
        if text.startswith(quote, index):
            return index + len(quote)
        if char == "\\":
            index += 2
        elif char == "{" and not text.startswith("{", index + 1):
            index = _replacement(text, index, limit)[1]
        elif char in "{}":
            index += 2
        else:
            index += 1
    raise Untranslated("f-string end")


# One piece of an f-string: ("text", start, end), or ("expression", start, end, brace start, brace end,
# conversion or None, whether `=` follows the expression, format spec pieces or None).
Piece = tuple


def fstring_pieces(text: str, start: int, end: int, in_spec: bool = False) -> tuple[list[Piece], int]:
    """The pieces of the f-string body text[start:end] (of a format spec when `in_spec`: then it
    stops at its closing `}`), and where it stopped."""
    pieces: list[Piece] = []
    index = start
    text_start = start
    while index < end:
        char = text[index]
        if char == "{":
            if not in_spec and text.startswith("{", index + 1):
                index += 2
                continue
            if index > text_start:
                pieces.append(("text", text_start, index))
            piece, index = _replacement(text, index, end)
            pieces.append(piece)
            text_start = index
        elif char == "}":
            if in_spec:
                break
            if not text.startswith("}", index + 1):
                raise Untranslated("f-string brace")
            index += 2
        elif char == "\\" and not in_spec:
            index += 2
        else:
            index += 1
    if index > end:
        raise Untranslated("f-string end")
    if index > text_start:
        pieces.append(("text", text_start, index))
    return pieces, index


_CLOSERS = {"(": ")", "[": "]", "{": "}"}


def _replacement(text: str, brace: int, end: int) -> tuple[Piece, int]:
    """The replacement field opening at text[brace] (`{`): its piece and the offset after its `}`."""
    index = brace + 1
    expression_start = index
    stack: list[str] = []
    equal = False
    expression_end = -1
    while index < end:
        char = text[index]
        if char in _CLOSERS:
            stack.append(_CLOSERS[char])
        elif stack and char == stack[-1]:
            stack.pop()
        elif char in ")]}" and stack:
            raise Untranslated("f-string brackets")
        elif char in "'\"":
            match = STRING.match(text, index)
            if match is None or match.end() > end:
                raise Untranslated("f-string nested string")
            index = match.end()
            continue
        elif char == "#" or char == "\\":
            raise Untranslated("f-string comment or backslash")
        elif not stack:
            if char == "!" and not text.startswith("=", index + 1):
                expression_end = index
                break
            if char == ":" or char == "}":
                expression_end = index
                break
            if char == "=" and text[index - 1] not in "=!<>" and not text.startswith("=", index + 1):
                equal = True
                expression_end = index
                index += 1
                while index < end and text[index] in " \t":
                    index += 1
                break
        index += 1
    if expression_end < 0 or index >= end:
        raise Untranslated("f-string field")
    conversion = None
    if text[index] == "!":
        conversion = text[index + 1 : index + 2]
        index += 2
    spec = None
    if index < end and text[index] == ":":
        spec, index = fstring_pieces(text, index + 1, end, in_spec=True)
    if index >= end or text[index] != "}":
        raise Untranslated("f-string field end")
    return ("expression", expression_start, expression_end, brace, index + 1, conversion, equal, spec), index + 1
