"""Test cases that declare what a run shows: line 1 is `# verify: leaks` or `# verify: flat`
(in a notebook, line 1 of its first code cell)."""

from __future__ import annotations

import os
import re

MARKER = re.compile(r"^#\s*verify:\s*(leaks|flat)\s*$")


def expectation(path: str) -> str | None:
    from memlint.engine import DecodeError, read_source

    try:  # a notebook's line 1 is that of its code cells joined (memlint/notebook.py)
        first = read_source(path).text.split("\n", 1)[0]
    except (OSError, DecodeError):
        return None
    match = MARKER.match(first.lstrip("\ufeff").rstrip("\r\n"))
    return match.group(1) if match else None


def discover(directory: str) -> list[str]:
    """Every `.py` or `.ipynb` under `directory` that declares an expectation, in a stable order."""
    found = []
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
        for name in sorted(files):
            if name.endswith((".py", ".ipynb")) and not name.endswith((".fixed.py", ".fixed.ipynb")):
                path = os.path.join(root, name)
                if expectation(path) is not None:
                    found.append(path)
    return found
