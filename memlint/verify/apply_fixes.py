"""Apply memlint's fixes (unsafe ones included) to source text, in memory.

Private to `memlint verify --compare-fix`; `--fix` has its own writer.
Ruff's approach: apply every fix that does not overlap one already chosen,
lint the result again and repeat, so that fixes of nested regions (an
`ML003` wrap around a loop holding an `ML001` store) all land.
"""

from __future__ import annotations

import re
from typing import Sequence

from memlint.engine import lint_source
from memlint.models import Applicability, Edit, Finding

MAX_ROUNDS = 8


def _line_starts(text: str) -> list[int]:
    return [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]


def _offset(starts: list[int], row: int, column: int) -> int:
    return starts[min(row, len(starts)) - 1] + column - 1


def apply_edits(text: str, edits: Sequence[Edit]) -> str:
    """Apply non-overlapping edits (1-based rows and columns, end exclusive)."""
    starts = _line_starts(text)
    spans = sorted(
        ((_offset(starts, e.start.row, e.start.column), _offset(starts, e.end.row, e.end.column), e.content) for e in edits),
        key=lambda s: (s[0], s[1]),
        reverse=True,
    )
    for start, end, content in spans:
        text = text[:start] + content + text[end:]
    return text


def _overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1] or a[0] == b[0]


def fix_all(text: str, path: str, codes: Sequence[str]) -> tuple[str, list[Finding]]:
    """`text` with every applicable fix applied; and the findings that were fixed."""
    fixed: list[Finding] = []
    for _ in range(MAX_ROUNDS):
        findings, _errors = lint_source(text, path, codes)
        starts = _line_starts(text)
        chosen: list[Edit] = []
        taken: list[tuple[int, int]] = []
        progress = False
        for finding in findings:
            fix = finding.fix
            if fix is None or not fix.edits or fix.applicability is Applicability.DISPLAY_ONLY:
                continue
            spans = [
                (_offset(starts, e.start.row, e.start.column), _offset(starts, e.end.row, e.end.column)) for e in fix.edits
            ]
            if any(_overlaps(s, t) for s in spans for t in taken):
                continue
            taken.extend(spans)
            chosen.extend(fix.edits)
            fixed.append(finding)
            progress = True
        if not progress:
            break
        new = apply_edits(text, chosen)
        if new == text:
            break
        text = new
    return text, fixed
