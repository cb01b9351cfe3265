"""Inline suppression: `# noqa`, `# noqa: ML001`, `# memlint: ignore[ML001]`, `# memlint: skip-file`."""

from __future__ import annotations

import re

_NOQA = re.compile(r"#\s*noqa(?::\s*(?P<codes>[A-Za-z0-9_-]+(?:[\s,]+[A-Za-z0-9_-]+)*))?", re.IGNORECASE)
_IGNORE = re.compile(r"#\s*memlint:\s*ignore(?:\[(?P<codes>[^\]]*)\])?", re.IGNORECASE)
_SKIP_FILE = re.compile(r"^\s*#\s*memlint:\s*skip-file\s*$", re.MULTILINE | re.IGNORECASE)


def skips_file(text: str) -> bool:
    return "skip-file" in text and bool(_SKIP_FILE.search(text))


def _codes(group: str | None) -> set[str] | None:
    """None: a bare suppression (everything); else the codes/names listed."""
    if not group:
        return None
    return {c.strip().upper() for c in re.split(r"[\s,]+", group) if c.strip()}


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
                    return True
    return False


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
