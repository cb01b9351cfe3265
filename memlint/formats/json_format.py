"""`--format json`: an array of findings with ruff-compatible keys.

As in ruff, every finding has a `cell` key: null for a Python file; for a
notebook, the cell's number (1-based, counting every cell), and then the rows
of `location`, `end_location` and of the fix's edits count within the cell
(each edit says its own `cell`: an added import may go into another one).
"""

from __future__ import annotations

import json
from typing import Any, TextIO

from memlint.formats.report import Report
from memlint.formats.common import Sources
from memlint.models import Finding, Position


def finding_json(finding: Finding, sources: Sources) -> dict[str, Any]:
    data = finding.to_json()
    found = sources.in_cell(finding.filename, finding.location)
    if found is None:
        return {**data, "cell": None}
    cell, start = found

    def inside(position: dict[str, int]) -> tuple[int, dict[str, int]]:
        located = sources.in_cell(finding.filename, Position(**position))
        return (located[0], located[1].to_json()) if located is not None else (cell, position)

    data["location"] = start.to_json()
    data["end_location"] = inside(data["end_location"])[1]
    for edit in (data["fix"] or {}).get("edits", []):
        edit["cell"], edit["location"] = inside(edit["location"])  # an added import may go to another cell
        edit["end_location"] = inside(edit["end_location"])[1]
    return {**data, "cell": cell}


def write(report: Report, stream: TextIO) -> None:
    sources = Sources()
    json.dump([finding_json(f, sources) for f in report.findings], stream, indent=2, ensure_ascii=False)
    stream.write("\n")
