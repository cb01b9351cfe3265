"""`--format rdjson`: reviewdog's Diagnostic Format (`reviewdog -f=rdjson`), fixes as suggestions.

Columns are 1-based UTF-8 byte offsets and ranges end-exclusive, as the format
defines; reviewdog turns each suggestion into a GitHub "suggested change".

A finding in a notebook points at the `.ipynb` file, at the line of its JSON
that holds the flagged cell line, and its message starts with
`cell N, line L, column C: ` (formats/common.py `Sources.cell_prefix`). It has no
suggestion: its edits are edits of the cells, not of the JSON.
"""

from __future__ import annotations

import json
from typing import Any, TextIO

from memlint.formats.report import Report
from memlint.formats.common import INFORMATION_URI, TOOL_NAME, Sources, message_with_hint, rule_help_uri
from memlint.formats.text import where as text_location
from memlint.models import Finding, Position, Severity


def diagnostics(report: Report) -> dict[str, Any]:
    sources = Sources()

    def position(filename: str, where: Position) -> dict[str, int]:
        return {"line": where.row, "column": sources.byte_column(filename, where.row, where.column)}

    out = []
    for finding in sorted(report.findings, key=Finding.sort_key):
        prefix = sources.cell_prefix(finding)
        if prefix:  # a notebook: the lines of the .ipynb file that hold the cell's lines, no columns
            first, last = sources.file_rows(finding)
            where = {"start": {"line": first}, "end": {"line": last}}
        else:
            where = {
                "start": position(finding.filename, finding.location),
                "end": position(finding.filename, max(finding.location, finding.end_location)),
            }
        diagnostic: dict[str, Any] = {
            "message": prefix + message_with_hint(finding),
            "location": {"path": finding.filename, "range": where},
            "severity": "ERROR" if finding.severity is Severity.ERROR else "WARNING",
            "code": {"value": finding.code, "url": rule_help_uri(finding.code)},  # reviewdog links the code
            "original_output": f"{finding.filename}:{text_location(sources, finding.filename, finding.location)}: "
            f"{finding.code} [{finding.name}] {finding.message}",
        }
        if finding.fix and finding.fix.edits and not prefix:  # a notebook's edits are not edits of its JSON
            diagnostic["suggestions"] = [
                {
                    "range": {
                        "start": position(finding.filename, edit.start),
                        "end": position(finding.filename, edit.end),
                    },
                    "text": edit.content,
                }
                for edit in finding.fix.edits
            ]
        out.append(diagnostic)
    return {"source": {"name": TOOL_NAME, "url": INFORMATION_URI}, "diagnostics": out}


def write(report: Report, stream: TextIO) -> None:
    json.dump(diagnostics(report), stream, indent=2, ensure_ascii=False)
    stream.write("\n")
