"""Where a report goes when `--output-file` names a file."""

from __future__ import annotations

import os
from typing import TextIO


def open_output(path: str) -> TextIO:
    """Open `path` for writing, creating its missing parent directories first, as ruff does
    (`-o reports/memlint.sarif` in a fresh CI checkout has no `reports/`)."""
    parent = os.path.dirname(os.path.abspath(path))
    os.makedirs(parent, exist_ok=True)
    return open(path, "w", encoding="utf-8")
