"""What a formatter is given: the findings, the files that could not be linted, and how to show them."""

from __future__ import annotations

from dataclasses import dataclass, field

from memlint.models import FileError, Finding


@dataclass
class Report:
    findings: list[Finding]
    errors: list[FileError] = field(default_factory=list)
    files: int = 0
    color: bool = False
    quiet: bool = False
    statistics: bool = False
    fixed: int = 0
    show_source: bool = False  # text formats: a frame of the flagged code under each finding
    root: str = "."  # repository root for formats with relative paths (SARIF, GitLab)
