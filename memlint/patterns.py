"""Path patterns as ruff reads them: `exclude`, `include` and `per-file-ignores` entries,
and the test files some rules leave alone.

Below both `config` (per-file ignores) and `discovery` (excludes), which ask it.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pathspec

# A pattern that is a plain name (`build`, `.venv`) or a plain name's ending (`*.egg-info`): without
# `contents`, it matches the path's last part alone, as compared here; pathspec (imported for the
# other patterns only: a fifth of a warm run's imports) compiles the rest.
_PLAIN = re.compile(r"\*?[\w.-]+")


def matches_any(path: str, patterns: list[str], root: Path, contents: bool = False) -> bool:
    """Does a pattern match `path`? Each pattern is a gitignore-style glob (pathspec's, git's own
    rules: `*` stays within a directory, `**` crosses them): one without `/` matches a base name
    anywhere, one with `/` the path relative to `root` (an absolute one, the absolute path).
    `contents`: a pattern that matches a directory also matches what lies below it, as in
    `.gitignore` (`per-file-ignores`). Without it only the path itself counts: a directory walk
    prunes an excluded directory, and a directory named on the command line is linted although
    it lies in an excluded one (as in ruff; `--force-exclude` asks about each parent)."""
    absolute = os.path.abspath(path)
    inside = _inside(root)
    if absolute.startswith(inside):  # (a directory walk asks about each path below the root: no `relpath`)
        relative: str | None = absolute[len(inside) :].replace(os.sep, "/")
    else:
        try:
            relative = os.path.relpath(absolute, root).replace(os.sep, "/")
        except ValueError:  # another drive
            relative = None
    if relative is not None and (relative == ".." or relative.startswith("../")):
        relative = None  # outside the project: its parents' names are not the project's to match
    for pattern, absolute_pattern, plain in _read(tuple(patterns)):
        if absolute_pattern:
            if _spec(pattern.lstrip("/")).match_file(absolute.replace(os.sep, "/").lstrip("/")):
                return True
            continue
        if relative is None:
            if "/" not in pattern and _spec(pattern).match_file(os.path.basename(absolute)):
                return True
            continue
        if not contents and plain:
            name = relative.rpartition("/")[2]
            if name == pattern or (pattern[0] == "*" and name.endswith(pattern[1:])):
                return True
            continue
        if _matches(pattern, relative, contents):
            return True
    return False


@lru_cache(maxsize=64)
def _inside(root: Path) -> str:
    """The start of every absolute path below `root` (its own, with a trailing separator)."""
    return os.path.join(os.path.abspath(root), "")


@lru_cache(maxsize=64)
def _read(patterns: tuple[str, ...]) -> tuple[tuple[str, bool, bool], ...]:
    """Each pattern that says something, with whether it is absolute and whether it is plain (`_PLAIN`),
    read once (a directory walk asks about each file and directory with the same ones)."""
    read = []
    for pattern in patterns:
        pattern = pattern.rstrip("/")  # `build/` is `build`: the walk asks about a directory by its name
        if pattern:
            read.append((pattern, os.path.isabs(pattern), bool(_PLAIN.fullmatch(pattern)) and pattern not in (".", "..")))
    return tuple(read)


def _matches(pattern: str, relative: str, contents: bool) -> bool:
    spec = _spec(pattern)
    if contents:
        return spec.match_file(relative)
    # pathspec's regex ends in an optional `/` group (`ps_d`) where it matched a directory above the path
    match = spec.patterns[0].regex.match(relative)
    return match is not None and not ("ps_d" in match.re.groupindex and match.group("ps_d"))


@lru_cache(maxsize=1024)
def _spec(pattern: str) -> "pathspec.PathSpec":
    """One pattern, compiled once (discovery asks about every file and directory of a tree)."""
    import pathspec

    return pathspec.GitIgnoreSpec.from_lines([pattern])


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
