"""`--format text`: `path:row:col: CODE [name] message`, a hint, then a summary."""

from __future__ import annotations

from collections import Counter
from typing import Callable, TextIO

import click

from memlint.formats.report import Report
from memlint.formats.common import Sources
from memlint.models import Applicability, Position, Severity


def write(report: Report, stream: TextIO, concise: bool = False) -> None:
    """Each finding with its help line and fix; `concise`: one line a finding (ruff's
    `--output-format concise`). `report.show_source` adds a frame of the flagged code."""
    style = (lambda text, **kw: click.style(text, **kw)) if report.color else (lambda text, **kw: text)
    if report.statistics:
        _statistics(report, stream, style)
        return
    sources = Sources()
    for f in report.findings:
        code_color = "red" if f.severity is Severity.ERROR else "yellow"
        fixable = " [*]" if f.fix and f.fix.applicability is Applicability.SAFE else ""
        stream.write(
            f"{style(f.filename, bold=True)}:{where(sources, f.filename, f.location)}: "
            f"{style(f.code, fg=code_color, bold=True)}{fixable} [{f.name}] {f.message}\n"
        )
        if report.show_source:
            for line in code_frame(sources, f, lambda carets: style(carets, fg=code_color, bold=True)):
                stream.write(line + "\n")
        if concise:
            continue
        if f.hint:
            stream.write(f"    {style('help', fg='cyan', bold=True)}: {f.hint}\n")
        if f.fix and not _repeats_hint(f):
            _fix(f, stream, style, sources)
    if report.quiet:
        return
    count = len(report.findings)
    if report.fixed:
        stream.write(f"Fixed {report.fixed} finding{'s' if report.fixed != 1 else ''}.\n")
    if count == 0 and not report.errors:
        stream.write(style("All checks passed!", fg="green") + "\n")
        return
    if count:
        errors = sum(1 for f in report.findings if f.severity is Severity.ERROR)
        noun = "finding" if count == 1 else "findings"
        stream.write(f"Found {count} {noun} ({errors} error{'s' if errors != 1 else ''}, {count - errors} warning{'s' if count - errors != 1 else ''}).\n")
        safe = sum(1 for f in report.findings if f.fix and f.fix.applicability is Applicability.SAFE and f.fix.edits)
        unsafe = sum(1 for f in report.findings if f.fix and f.fix.applicability is Applicability.UNSAFE and f.fix.edits)
        hidden = f"{unsafe} hidden fix{'es' if unsafe != 1 else ''} can be enabled with the `--unsafe-fixes` option"
        if safe:
            stream.write(f"[*] {safe} fixable with the `--fix` option")
            stream.write(f" ({hidden}).\n" if unsafe else ".\n")
        elif unsafe:
            stream.write(f"No fixes available ({hidden}).\n")


def where(sources: Sources, filename: str, position: Position) -> str:
    """`row:col`, or in a notebook `cell N:row:col` with the row counted within the cell (ruff's form)."""
    found = sources.in_cell(filename, position)
    if found is None:
        return f"{position.row}:{position.column}"
    cell, inside = found
    return f"cell {cell}:{inside.row}:{inside.column}"


FRAME_LINES = 3  # flagged lines shown at most; the rest is elided


def code_frame(sources: Sources, f, mark: Callable[[str], str]) -> list[str]:
    """ruff's code frame: the line before the finding, its lines (at most FRAME_LINES), and
    carets under the flagged part of its first line. Rows are numbered as in the header (in a
    notebook, within the cell); a tab before the range stays a tab so the carets line up."""
    first = f.location.row
    last = min(max(first, f.end_location.row), first + FRAME_LINES - 1)
    def number(row: int) -> str:
        found = sources.in_cell(f.filename, Position(row, 1))
        return str(found[1].row if found else row)

    context = [first - 1] if first > 1 and number(first) != "1" else []  # not from the cell before
    rows = [*context, *range(first, last + 1)]

    width = max(len(number(row)) for row in rows)
    gutter = " " * width + " |"
    out = [gutter]
    for row in rows:
        text = sources.line(f.filename, row)
        out.append(f"{number(row):>{width}} | {text}".rstrip())
        if row == first:
            start = max(f.location.column - 1, 0)
            end = f.end_location.column - 1 if f.end_location.row == first else len(text)
            indent = "".join(c if c == "\t" else " " for c in text[:start])
            out.append(f"{gutter} {indent}{mark('^' * max(end - start, 1))}")
    if max(first, f.end_location.row) > last:
        out.append(f"{' ' * width} : ...")
    out.append(gutter)
    return out


def _repeats_hint(f) -> bool:
    """A display-only fix whose message is the help line again (capitalised): printed once."""
    fix = f.fix
    return fix.applicability is Applicability.DISPLAY_ONLY and not fix.edits and fix.message.lower() == (f.hint or "").lower()


def _fix(f, stream: TextIO, style, sources: Sources) -> None:
    """The fix: applicability, message, then each edit (`row:col-row:col → new text`)."""
    fix = f.fix
    stream.write(f"    {style('fix', fg='cyan', bold=True)} ({fix.applicability.value}): {fix.message}\n")
    for edit in fix.edits:
        span = f"{where(sources, f.filename, edit.start)}-{where(sources, f.filename, edit.end)}"
        lines = edit.content.splitlines()
        if len(lines) <= 1 and not edit.content.endswith(("\n", "\r")):
            stream.write(f"      {span} → {edit.content!r}\n" if not edit.content else f"      {span} → {edit.content}\n")
        else:
            stream.write(f"      {span} →\n")
            for line in lines:
                stream.write(f"        | {line}\n")


def _statistics(report: Report, stream: TextIO, style) -> None:
    counts = Counter((f.code, f.name) for f in report.findings)
    fixable = {f.code for f in report.findings if f.fix and f.fix.applicability is Applicability.SAFE}
    for (code, name), count in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        mark = "[*]" if code in fixable else "   "
        stream.write(f"{count:>5}\t{style(code, bold=True)}\t{mark} {name}\n")
