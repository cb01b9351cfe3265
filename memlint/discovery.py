"""Which files to lint: walk directories, honour excludes, virtualenvs and .gitignore."""

from __future__ import annotations

import fnmatch
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from memlint.config import DEFAULT_INCLUDE


@dataclass
class Discovery:
    files: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # named on the command line but absent
    warnings: list[str] = field(default_factory=list)  # vanished or unreadable directories


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


def is_excluded(path: str, exclude: list[str], root: Path) -> bool:
    """Whether `exclude` matches the file or one of its directories below the project root."""
    current = Path(os.path.abspath(path))
    top = Path(os.path.abspath(root))
    while current != top:  # the root itself may be named like an exclude (`build/`)
        if matches_any(str(current), exclude, root):
            return True
        if top not in current.parents:
            return False
        current = current.parent
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


class GitIgnore:
    """The subset of .gitignore that matters for finding source files:
    globs, `**`, anchored patterns, directory-only patterns and `!` negation."""

    def __init__(self) -> None:
        self.rules: list[tuple[str, re.Pattern[str], bool, bool]] = []  # (base, regex, negated, dir_only)

    def add_file(self, gitignore: str) -> None:
        base = os.path.dirname(os.path.abspath(gitignore))
        try:
            with open(gitignore, encoding="utf-8", errors="replace") as handle:
                lines = handle.read().splitlines()
        except OSError:
            return
        for line in lines:
            line = line.rstrip()
            if not line or line.startswith("#"):
                continue
            negated = line.startswith("!")
            if negated:
                line = line[1:]
            dir_only = line.endswith("/")
            line = line.strip("/") if line.startswith("/") or dir_only else line
            anchored = "/" in line.rstrip("/")
            body = _glob_regex(line.lstrip("/")).pattern
            regex = re.compile(body if anchored else f"(?:.*/)?{body}")
            self.rules.append((base, regex, negated, dir_only))

    def ignored(self, path: str, is_dir: bool) -> bool:
        absolute = os.path.abspath(path)
        result = False
        for base, regex, negated, dir_only in self.rules:
            if dir_only and not is_dir:
                continue
            if not absolute.startswith(base + os.sep):
                continue
            relative = absolute[len(base) + 1 :].replace(os.sep, "/")
            if regex.fullmatch(relative):
                result = not negated
        return result


def _git_root(start: Path) -> Path | None:
    for directory in [start, *start.parents]:
        if (directory / ".git").exists():
            return directory
    return None


def discover(paths: list[str], exclude: list[str], root: Path, include: list[str] | None = None) -> Discovery:
    """Files to lint under `paths`: in a directory, those matching `include`
    (globs: one without `/` matches the base name, one with `/` the path
    relative to `root`) and not excluded."""
    include = DEFAULT_INCLUDE if include is None else include
    found = Discovery()
    seen: set[str] = set()

    def add(path: str) -> None:
        key = os.path.abspath(path)
        if key not in seen:
            seen.add(key)
            found.files.append(path)

    for given in paths:
        if os.path.isfile(given) or (os.path.lexists(given) and not os.path.isdir(given)):
            add(given)  # a file named explicitly is always linted (a FIFO or a link loop: an ML900 finding)
            continue
        if not os.path.isdir(given):
            found.missing.append(given)
            continue
        gitignore = GitIgnore()
        start = Path(given).resolve()
        git_root = _git_root(start)
        if git_root is not None:
            for directory in reversed([start, *start.parents]):
                if git_root in (directory, *directory.parents) and directory != start:
                    candidate = directory / ".gitignore"
                    if candidate.is_file():
                        gitignore.add_file(str(candidate))
        _walk(given, exclude, include, root, gitignore, add, found)
    return found


def _walk(
    top: str, exclude: list[str], include: list[str], root: Path, gitignore: GitIgnore, add, found: Discovery
) -> None:
    # A pattern without `/` (`*.py`) matches the base name: no path arithmetic for each file of the tree.
    by_name = [p for p in include if "/" not in p]
    by_path = [p for p in include if "/" in p]

    def onerror(error: OSError) -> None:
        found.warnings.append(f"{error.filename}: {error.strerror or error} (skipped)")

    for directory, dirnames, filenames in os.walk(top, onerror=onerror):
        if ".gitignore" in filenames:
            gitignore.add_file(os.path.join(directory, ".gitignore"))
        kept = []
        for name in sorted(dirnames):
            sub = os.path.join(directory, name)
            if matches_any(sub, exclude, root) or gitignore.ignored(sub, True):
                continue
            if os.path.exists(os.path.join(sub, "pyvenv.cfg")):
                continue  # a virtual environment
            kept.append(name)
        dirnames[:] = kept
        for name in sorted(filenames):
            path = os.path.join(directory, name)
            if not (any(fnmatch.fnmatch(name, p) for p in by_name) or (by_path and matches_any(path, by_path, root))):
                continue
            if matches_any(path, exclude, root) or gitignore.ignored(path, False):
                continue
            add(path)
