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
