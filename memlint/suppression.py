"""Suppression comments: `# noqa`, `# noqa: ML001`, `# memlint: ignore[ML001]` on a line;
`# memlint: noqa`, `# memlint: noqa: ML001` and `# memlint: skip-file` for a whole file; and
which line comments suppressed something (for ML100, unused-noqa)."""

from __future__ import annotations

import re
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Iterator

_NOQA = re.compile(r"#\s*noqa(?::\s*(?P<codes>[A-Za-z0-9_-]+(?:[\s,]+[A-Za-z0-9_-]+)*))?", re.IGNORECASE)
_IGNORE = re.compile(r"#\s*memlint:\s*ignore(?:\[(?P<codes>[^\]]*)\])?", re.IGNORECASE)
_SKIP_FILE = re.compile(r"^\s*#\s*memlint:\s*skip-file\s*$", re.MULTILINE | re.IGNORECASE)
# ruff's `# ruff: noqa` / `# ruff: noqa: F401`: on a line of its own, anywhere in the file
_FILE_NOQA = re.compile(r"^[ \t]*#[ \t]*memlint:[ \t]*noqa(?::[ \t]*(?P<codes>[^#\r\n]*?))?[ \t]*$", re.MULTILINE | re.IGNORECASE)
EVERY_RULE = "ALL"  # in file_exemptions: a bare `# memlint: noqa`

# The (line, code as written) pairs whose comment suppressed a finding, while `recording` (ML100)
_USED: ContextVar[set[tuple[str, str]] | None] = ContextVar("memlint_used_suppressions", default=None)


def skips_file(text: str) -> bool:
    return "skip-file" in text and bool(_SKIP_FILE.search(text))


def _codes(group: str | None) -> set[str] | None:
    """None: a bare suppression (everything); else the codes/names listed."""
    if not group:
        return None
    return {c.strip().upper() for c in re.split(r"[\s,]+", group) if c.strip()}


def file_exemptions(text: str) -> set[str]:
    """The codes and names a file-level `# memlint: noqa[: CODES]` turns off in this file
    ({EVERY_RULE} for a bare one; empty without one)."""
    if not any(needle in text for needle in ("noqa", "NOQA", "Noqa")):  # 2 us a MB; the regex: 30 ms
        return set()
    exempt: set[str] = set()
    for match in _FILE_NOQA.finditer(text):
        exempt |= _codes(match.group("codes")) or {EVERY_RULE}
    return exempt


def is_suppressed(lines: list[str], start_row: int, end_row: int, code: str, name: str) -> bool:
    """Is a finding on rows start..end suppressed by a comment on its first or last line?"""
    for row in {start_row, end_row}:
        if not 1 <= row <= len(lines):
            continue
        line = lines[row - 1]
        if "#" not in line:
            continue
        for pattern in (_NOQA, _IGNORE):
            for match in pattern.finditer(line):
                codes = _codes(match.group("codes"))
                if codes is None or code in codes or name.upper() in codes:
                    used = _USED.get()
                    if used is not None:
                        used.add((line, code if codes is None or code in codes else name.upper()))
                    return True
    return False


def is_recording() -> bool:
    return _USED.get() is not None


@contextmanager
def recording() -> Iterator[set[tuple[str, str]]]:
    """Collect, while linting one file, the (line, code or name) of each suppression that applied."""
    used: set[tuple[str, str]] = set()
    token = _USED.set(used)
    try:
        yield used
    finally:
        _USED.reset(token)


@dataclass(frozen=True)
class Directive:
    """One memlint code or rule name listed in a suppression comment (`# noqa: ML001, E501`)."""

    row: int
    entry: str  # as written
    start: int  # 0-based columns of the whole comment directive on its line
    end: int
    entries: tuple[str, ...]  # everything the directive lists, as written, in order


_MEMLINT_CODE = re.compile(r"ML\d{3}\Z", re.IGNORECASE)


def memlint_directives(lines: list[str], known_names: set[str]) -> Iterator[Directive]:
    """Each memlint code (ML001) or rule name (retained-graph) listed by a `# noqa: ...` or
    `# memlint: ignore[...]` comment; a bare `# noqa` may be meant for other tools, and is left alone."""
    for row, line in enumerate(lines, 1):
        if "#" not in line or comment_start(line) is None:
            continue
        for pattern in (_NOQA, _IGNORE):
            for match in pattern.finditer(line, comment_start(line)):
                listed = [c for c in re.split(r"[\s,]+", match.group("codes") or "") if c]
                for entry in listed:
                    if _MEMLINT_CODE.match(entry) or entry.lower() in known_names:
                        yield Directive(row, entry, match.start(), match.end(), tuple(listed))


def without_entry(line: str, directive: Directive) -> str:
    """`line` with `directive.entry` taken out of its comment; the whole directive (and the
    space before it) when it lists nothing else."""
    rest = [e for e in directive.entries if e != directive.entry]
    before, after = line[: directive.start], line[directive.end :]
    if not rest:
        return before.rstrip() + after if not after.strip() else before + after.lstrip()
    text = line[directive.start : directive.end]
    kept = ", ".join(rest)
    if text.lstrip("#").strip().lower().startswith("memlint"):
        return f"{before}# memlint: ignore[{kept}]{after}"
    return f"{before}# noqa: {kept}{after}"


def add_noqa(line: str, code: str) -> str:
    """`line` (without its line break) with `code` suppressed by `# noqa`: added to the line's
    `# noqa: ...` list when it has one, else appended as a new `# noqa: CODE` comment."""
    start = comment_start(line)
    if start is not None:
        match = _NOQA.search(line, start)
        if match is not None and match.group("codes"):
            codes = _codes(match.group("codes")) or set()
            if code in codes:
                return line
            return f"{line[: match.end('codes')]}, {code}{line[match.end('codes') :]}"
    body = line.rstrip()
    return f"{body}  # noqa: {code}{line[len(body):]}"


def comment_start(line: str) -> int | None:
    """Where the comment of a one-line piece of code starts (a `#` outside string literals), if any."""
    quote = None
    index = 0
    while index < len(line):
        char = line[index]
        if quote is None:
            if char == "#":
                return index
            if char in "'\"":
                quote = line[index : index + 3] if line[index : index + 3] in ("'''", '"""') else char
                index += len(quote)
                continue
        elif char == "\\":
            index += 2
            continue
        elif line.startswith(quote, index):
            index += len(quote)
            quote = None
            continue
        index += 1
    return None


def commentable_rows(text: str) -> set[int] | None:
    """Rows whose end a `# noqa` comment may be appended to: not inside a string that spans
    lines, not continued by a backslash. None when the text does not tokenize."""
    import io
    import tokenize

    lines = text.splitlines()
    blocked: set[int] = {row for row, line in enumerate(lines, 1) if line.rstrip().endswith("\\")}
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.STRING and token.end[0] > token.start[0]:
                blocked.update(range(token.start[0], token.end[0]))
    except (tokenize.TokenError, SyntaxError):
        return None
    return {row for row in range(1, len(lines) + 1) if row not in blocked}
