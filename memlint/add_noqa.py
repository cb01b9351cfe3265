"""`memlint --add-noqa`: a `# noqa: CODE` comment on the line of each finding (ruff's
`--add-noqa`), for adopting memlint on a code base without fixing everything first.

A file is written only when the result still parses and its encoding round-trips; a finding
whose lines are all inside a multi-line string, or continued by a backslash, gets no comment
(said on stderr). Notebooks get the comment in the cell, as `--fix` edits them."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import groupby
from typing import Iterable

from memlint.models import Finding
from memlint.rules.catalog import FILE_CODES, UNUSED_NOQA
from memlint.suppression import add_noqa, commentable_rows

_LINE_BREAK = re.compile(r"(\r\n|\r|\n)")  # rows as the parser (and every Position) counts them


@dataclass
class Added:
    count: int = 0  # comments added or extended
    warnings: list[str] = field(default_factory=list)  # one line each, for stderr


def add_noqa_comments(findings: Iterable[Finding]) -> Added:
    """Suppress each finding in its file; ML000, ML900 and ML100 findings are left alone."""
    wanted = [f for f in findings if f.code not in FILE_CODES and f.code != UNUSED_NOQA[0]]
    done = Added()
    for path, group in groupby(sorted(wanted, key=lambda f: f.filename), key=lambda f: f.filename):
        _add_to_file(path, list(group), done)
    return done


def with_comments(text: str, findings: list[Finding]) -> tuple[str, int, list[int]]:
    """`text` with a `# noqa: CODE` for each finding: (new text, comments changed, rows of the
    findings that no comment can reach). None of its lines changes but those."""
    parts = _LINE_BREAK.split(text)  # line, break, line, break, ..., line
    allowed = commentable_rows(text) or set()
    changed, unreachable = set(), []
    for finding in findings:
        row = next((r for r in (finding.location.row, finding.end_location.row) if r in allowed), None)
        if row is None:
            unreachable.append(finding.location.row)
            continue
        new = add_noqa(parts[2 * (row - 1)], finding.code)
        if new != parts[2 * (row - 1)]:
            parts[2 * (row - 1)] = new
            changed.add((row, finding.code))
    return "".join(parts), len(changed), unreachable


def _add_to_file(path: str, findings: list[Finding], done: Added) -> None:
    from memlint.engine import read_or_error
    from memlint.fixes import FileChangedError, encode, write_atomic
    from memlint.notebook import NotebookError
    from memlint.parsing import python_ast

    source, error = read_or_error(path)
    if source is None:
        done.warnings.append(f"{path}: {error.message}; no noqa added")
        return
    text, count, unreachable = with_comments(source.text, findings)
    for row in unreachable:
        done.warnings.append(f"{path}:{row}: no line of this finding can take a comment (a string or a continued line)")
    if not count:
        return
    try:
        python_ast(text)
    except (SyntaxError, ValueError) as exc:  # never write a file that does not parse
        done.warnings.append(f"{path}: not written: with the comments it would not parse ({exc})")
        return
    try:
        if source.notebook is not None:
            data = source.notebook.with_source(text)
        else:
            if encode(source.text, source.encoding) != source.raw:
                raise ValueError(f"its {source.encoding} encoding does not round-trip")
            data = encode(text, source.encoding)
        write_atomic(path, data, source.raw)
    except (NotebookError, UnicodeError, ValueError, LookupError, FileChangedError, OSError) as exc:
        reason = getattr(exc, "strerror", None) or exc
        done.warnings.append(f"{path}: not written: {reason}")
        return
    done.count += count
