"""`--format github`: GitHub Actions workflow commands that annotate a pull request.

    ::error file=train.py,line=9,endLine=9,col=9,endColumn=28,title=ML001 retained-graph::message

GitHub shows at most 10 annotations of each type (error, warning) per step and
50 per job, and silently drops the rest. So annotations go out most severe
first, at most `PER_STEP` of each type; the findings beyond that are printed
as plain log lines, counted in a closing line, and, when `$GITHUB_STEP_SUMMARY`
is set, listed with every other finding in a Markdown table on the run's
summary page.

A finding in a notebook points at the `.ipynb` file, at the line of its JSON
that holds the flagged cell line, and its message starts with
`cell N, line L, column C: ` (formats/common.py `Sources.cell_prefix`). No
columns: those of the cell are not those of the JSON line.
"""

from __future__ import annotations

import os
from typing import TextIO

from memlint.formats.report import Report
from memlint.formats.common import Sources, most_severe_first, message_with_hint, relative_path, repository_root
from memlint.formats.text import where as text_location
from memlint.models import FileError, Finding, Severity

PER_STEP = 10  # annotations of one type that GitHub shows per step
PER_JOB = 50  # annotations of all types that GitHub shows per job


def escape_data(value: str) -> str:
    """Escape a command's message, as `@actions/core` does."""
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(value: str) -> str:
    """Escape a command property value: the message escapes plus `:` and `,`."""
    return escape_data(value).replace(":", "%3A").replace(",", "%2C")


def command(kind: str, message: str, **properties: object) -> str:
    props = ",".join(f"{key}={escape_property(str(value))}" for key, value in properties.items() if value is not None)
    return f"::{kind} {props}::{escape_data(message)}" if props else f"::{kind}::{escape_data(message)}"


def annotation(finding: Finding, path: str, sources: Sources | None = None) -> str:
    kind = "error" if finding.severity is Severity.ERROR else "warning"
    sources = sources or Sources()
    start, end = finding.location, max(finding.location, finding.end_location)
    prefix = sources.cell_prefix(finding)
    first, last = sources.file_rows(finding)
    # The runner drops the columns of a range that spans lines (`ValidateLinesAndColumns`): leave them out.
    # In a notebook the lines are those of the .ipynb file, whose columns are not the cell's.
    same_line = start.row == end.row and not prefix
    return command(
        kind,
        prefix + message_with_hint(finding),
        file=path,
        line=first,
        endLine=last,
        col=start.column if same_line else None,
        endColumn=end.column if same_line else None,
        title=f"{finding.code} {finding.name}",
    )


def write(report: Report, stream: TextIO) -> None:
    base = repository_root(report.root)
    path = lambda filename: relative_path(filename, base)  # noqa: E731
    sources = Sources()
    shown = {"error": 0, "warning": 0}
    overflow: list[Finding] = []
    unannotated_errors = 0

    def room(kind: str) -> bool:
        return shown[kind] < PER_STEP and sum(shown.values()) < PER_JOB

    for error in report.errors:  # a file that could not be linted at all comes first
        if room("error"):
            shown["error"] += 1
            stream.write(command("error", error.message, file=path(error.filename), title="memlint") + "\n")
        else:
            unannotated_errors += 1
            stream.write(f"{path(error.filename)}: error: {error.message}\n")
    for finding in most_severe_first(report.findings):
        kind = "error" if finding.severity is Severity.ERROR else "warning"
        if room(kind):
            shown[kind] += 1
            stream.write(annotation(finding, path(finding.filename), sources) + "\n")
        else:
            overflow.append(finding)
    for finding in overflow:  # still in the log, just not as annotations
        stream.write(
            f"{path(finding.filename)}:{text_location(sources, finding.filename, finding.location)}: "
            f"{finding.code} [{finding.name}] {finding.message}\n"
        )

    count = len(report.findings)
    if count:
        errors = sum(1 for f in report.findings if f.severity is Severity.ERROR)
        stream.write(f"memlint: {count} finding{'s' if count != 1 else ''} ({errors} error{'s' if errors != 1 else ''}, {count - errors} warning{'s' if count - errors != 1 else ''}).\n")
    if overflow or unannotated_errors:
        summary = os.environ.get("GITHUB_STEP_SUMMARY")
        where = " They are all listed in the step summary." if summary else ""
        total = count + len(report.errors)
        stream.write(
            f"memlint: {len(overflow) + unannotated_errors} of {total} findings were not annotated: GitHub shows "
            f"{PER_STEP} annotations of each type per step.{where}\n"
        )
        if summary:
            write_step_summary(summary, report.findings, report.errors, path, sources)


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def step_summary(findings: list[Finding], errors: list[FileError], path, sources: Sources | None = None) -> str:
    """A Markdown table of every finding, most severe first, linked to the code when the run's URLs are known."""
    server, repository, sha = (os.environ.get(k) for k in ("GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITHUB_SHA"))
    count = len(findings)
    lines = [
        f"### memlint: {count} finding{'s' if count != 1 else ''}",
        "",
        f"GitHub shows only {PER_STEP} annotations of each type per step; this table lists them all.",
        "",
        "| severity | code | rule | location | message |",
        "|---|---|---|---|---|",
    ]
    for error in errors:
        lines.append(f"| error | | | `{_cell(path(error.filename))}` | {_cell(error.message)} |")
    sources = sources or Sources()
    for finding in most_severe_first(findings):
        relative = path(finding.filename)
        location = f"`{_cell(relative)}:{text_location(sources, finding.filename, finding.location)}`"
        if server and repository and sha and not relative.startswith("/"):
            first, last = sources.file_rows(finding)
            end = f"-L{last}" if last != first else ""
            url = f"{server}/{repository}/blob/{sha}/{relative}#L{first}{end}"
            location = f"[{location}]({url.replace(' ', '%20').replace(')', '%29')})"
        lines.append(
            f"| {finding.severity.value} | {finding.code} | `{finding.name}` | {location} | {_cell(finding.message)} |"
        )
    return "\n".join(lines) + "\n"


def write_step_summary(
    target: str, findings: list[Finding], errors: list[FileError], path, sources: Sources | None = None
) -> None:
    try:
        with open(target, "a", encoding="utf-8") as handle:
            handle.write(step_summary(findings, errors, path, sources))
    except OSError as exc:
        import click

        click.echo(f"memlint: warning: cannot write the step summary to {target}: {exc.strerror or exc}", err=True)
