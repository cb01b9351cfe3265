"""Test cases that declare what a run shows: line 1 is `# verify: leaks` or `# verify: flat`."""

from __future__ import annotations

import os
import re

MARKER = re.compile(r"^#\s*verify:\s*(leaks|flat)\s*$")


def expectation(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            first = handle.readline()
    except OSError:
        return None
    match = MARKER.match(first.lstrip("\ufeff").rstrip("\r\n"))
    return match.group(1) if match else None


def discover(directory: str) -> list[str]:
    """Every `.py` under `directory` that declares an expectation, in a stable order."""
    found = []
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
        for name in sorted(files):
            if name.endswith(".py") and not name.endswith(".fixed.py"):
                path = os.path.join(root, name)
                if expectation(path) is not None:
                    found.append(path)
    return found
