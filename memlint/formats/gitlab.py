"""`--format gitlab`: a GitLab Code Quality report (a CodeClimate subset).

Upload it as `artifacts: reports: codequality:`; GitLab shows the findings a
merge request introduces in its widget and on the diff. Paths are relative to
the repository root; `fingerprint` is memlint's line-number-free fingerprint,
so a finding that only moved is not reported as new.

A finding in a notebook points at the `.ipynb` file, at the line of its JSON
that holds the flagged cell line, and its message starts with
`cell N, line L, column C: ` (formats/common.py `Sources.cell_prefix`).
"""

from __future__ import annotations

import json
from typing import Any, TextIO

from memlint.formats.report import Report
from memlint.formats.common import Sources, fingerprints, message_with_hint, relative_path, repository_root
from memlint.models import Finding, Severity

SEVERITY = {Severity.ERROR: "major", Severity.WARNING: "minor"}


def issues(report: Report) -> list[dict[str, Any]]:
    base = repository_root(report.root)
    findings = sorted(report.findings, key=Finding.sort_key)
    sources = Sources()
    out = []
    for finding, fingerprint in zip(findings, fingerprints(findings, base, sources)):
        prefix = sources.cell_prefix(finding)  # a notebook: lines of the .ipynb file, the cell in the text
        first, last = sources.file_rows(finding)
        out.append(
            {
                "type": "issue",
                "description": f"{prefix}{finding.code} [{finding.name}] {finding.message}",
                "content": {"body": prefix + message_with_hint(finding)},
                "check_name": finding.code,
                "categories": ["Performance", "Bug Risk"],
                "fingerprint": fingerprint,
                "severity": SEVERITY[finding.severity],
                "location": {
                    "path": relative_path(finding.filename, base),
                    "lines": {"begin": first, "end": max(first, last)},
                },
            }
        )
    return out


def write(report: Report, stream: TextIO) -> None:
    json.dump(issues(report), stream, indent=2, ensure_ascii=False)
    stream.write("\n")
