"""Path patterns as ruff reads them: `exclude`, `include` and `per-file-ignores` entries,
and the test files some rules leave alone.

Below both `config` (per-file ignores) and `discovery` (excludes), which ask it.
"""

from __future__ import annotations

import fnmatch
import os
import re
from pathlib import Path


def matches_any(path: str, patterns: list[str], root: Path) -> bool:
    """ruff-style: a pattern matches the path relative to `root`, or its base name."""
    absolute = os.path.abspath(path)
    try:
        relative = os.path.relpath(absolute, root).replace(os.sep, "/")
    except ValueError:
        relative = absolute
    name = os.path.basename(absolute.rstrip(os.sep))
    for pattern in patterns:
        p = pattern.rstrip("/")
        if fnmatch.fnmatch(name, p) or fnmatch.fnmatch(relative, p) or fnmatch.fnmatch(absolute, p):
            return True
        if "**" in p and _glob_regex(p).fullmatch(relative):
            return True
    return False


def _glob_regex(pattern: str) -> re.Pattern[str]:
    out = ""
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out += "(?:.*/)?"
            i += 3
        elif pattern.startswith("**", i):
            out += ".*"
            i += 2
        elif pattern[i] == "*":
            out += "[^/]*"
            i += 1
        elif pattern[i] == "?":
            out += "[^/]"
            i += 1
        else:
            out += re.escape(pattern[i])
            i += 1
    return re.compile(out)


def is_test_path(path: str) -> bool:
    """pytest files and test folders."""
    path = path.replace("\\", "/")
    base = path.rsplit("/", 1)[-1]
    return (
        base.startswith("test_")
        or base.endswith("_test.py")
        or base == "conftest.py"
        or "/tests/" in f"/{path}"
        or "/test/" in f"/{path}"
    )
