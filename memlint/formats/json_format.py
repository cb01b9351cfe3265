"""`--format json`: an array of findings with ruff-compatible keys."""

from __future__ import annotations

import json
from typing import TextIO

from memlint.formats import Report


def write(report: Report, stream: TextIO) -> None:
    json.dump([f.to_json() for f in report.findings], stream, indent=2, ensure_ascii=False)
    stream.write("\n")
