"""ML100 (unused-noqa, ruff's RUF100): memlint codes in suppression comments that suppressed
nothing. The engine lints the file while `suppression.recording()` notes each comment that
applied, then asks this module about the comments that did not."""

from __future__ import annotations

import re
from typing import Collection

from memlint.models import Applicability, Edit, Finding, Fix, Position, Severity
from memlint.rules.catalog import RULES, SYNTAX_ERROR, UNREADABLE, UNUSED_NOQA
from memlint.suppression import memlint_directives, without_entry

_NAMES = {name: code for code, name, *_ in RULES} | dict((n, c) for c, n in (SYNTAX_ERROR, UNREADABLE, UNUSED_NOQA))
_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # rows as the parser (and every Position) counts them


def unused_noqa(text: str, path: str, codes: Collection[str], used: set[tuple[str, str]]) -> list[Finding]:
    """A finding for each memlint code or rule name listed in a suppression comment of `text`
    that suppressed nothing (`used`: the (line, code or name) pairs that did). Only the rules in
    `codes` (those that ran) are judged, and ML100 itself never."""
    findings = []
    lines = _LINE_BREAK.split(text)
    for directive in memlint_directives(lines, set(_NAMES)):
        entry = directive.entry.upper()
        code = _NAMES.get(directive.entry.lower(), entry)
        if code not in codes or code == UNUSED_NOQA[0] or (lines[directive.row - 1], entry) in used:
            continue
        line = lines[directive.row - 1]
        findings.append(
            Finding(
                code=UNUSED_NOQA[0],
                name=UNUSED_NOQA[1],
                message=f"Unused suppression: `{directive.entry}` reports nothing on this line",
                severity=Severity.WARNING,
                filename=path,
                location=Position(directive.row, directive.start + 1),
                end_location=Position(directive.row, directive.end + 1),
                hint=f"remove `{directive.entry}` from the comment",
                fix=Fix(
                    Applicability.SAFE,
                    f"Remove the unused `{directive.entry}`",
                    (Edit(without_entry(line, directive), Position(directive.row, 1), Position(directive.row, len(line) + 1)),),
                ),
            )
        )
    return findings
