"""Pull-request mode (`--diff-base REV`): which lines changed since the merge base with REV.

The comparison is `git diff -U0 $(git merge-base REV HEAD)` against the
working tree, so committed, staged and unstaged changes all count; untracked
Python files (not ignored) count as added in full. In a notebook, the changed
lines of the `.ipynb` file are mapped to the cell lines they hold (a change
to outputs or metadata changes no code line). Findings are kept only on
added or modified lines: a pull request is annotated with what it introduced,
not with the legacy of the whole repository.
"""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass, field

from memlint.models import Finding
from memlint.notebook import NotebookError, is_notebook, read_notebook

PYTHON_SUFFIXES = (".py", ".pyi", ".ipynb")
_HUNK = re.compile(rb"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@")
_ESCAPES = {b"a": 7, b"b": 8, b"t": 9, b"n": 10, b"v": 11, b"f": 12, b"r": 13, b'"': 34, b"\\": 92}


class GitDiffError(Exception):
    """Not a git repository, an unknown revision, no merge base: one clear line for the user."""


@dataclass
class ChangedLines:
    base: str  # the merge-base commit
    top: str  # the work tree's top-level directory
    lines: dict[str, set[int] | None] = field(default_factory=dict)  # real path -> changed rows; None: whole file

    def _key(self, path: str) -> str:
        return os.path.normcase(os.path.realpath(path))

    def has_file(self, path: str) -> bool:
        return self._key(path) in self.lines

    def files(self) -> list[str]:
        return sorted(self.lines)

    def touches(self, finding: Finding) -> bool:
        """Whether a finding lies on an added or modified line (any line of its range)."""
        rows = self.lines.get(self._key(finding.filename), set())
        if rows is None:
            return True
        last = max(finding.location.row, finding.end_location.row)
        return any(row in rows for row in range(finding.location.row, last + 1))


def _git(args: list[str], cwd: str) -> bytes:
    env = dict(os.environ, GIT_TERMINAL_PROMPT="0", LC_ALL="C")
    for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):  # as set by a hook that runs us
        env.pop(name, None)
    try:
        done = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, check=False)
    except FileNotFoundError:
        raise GitDiffError("--diff-base needs git, and no `git` executable was found on PATH") from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise _Failed(message[-1] if message else f"git {args[0]} failed ({done.returncode})")
    return done.stdout


class _Failed(Exception):
    pass


def _unquote(path: bytes) -> bytes:
    """Undo git's C-style quoting of unusual path names (`"a\\tb.py"`, octal bytes)."""
    if not (path.startswith(b'"') and path.endswith(b'"')):
        return path
    body, out, i = path[1:-1], bytearray(), 0
    while i < len(body):
        char = body[i : i + 1]
        if char == b"\\" and i + 1 < len(body):
            nxt = body[i + 1 : i + 2]
            if nxt in _ESCAPES:
                out.append(_ESCAPES[nxt])
                i += 2
                continue
            digits = body[i + 1 : i + 4]
            if len(digits) == 3 and all(48 <= c <= 55 for c in digits):
                out.append(int(digits, 8) & 0xFF)
                i += 4
                continue
        out += char
        i += 1
    return bytes(out)


def parse_diff(diff: bytes) -> dict[str, set[int]]:
    """`git diff -U0` output -> {path relative to the top level: added or modified rows}."""
    changed: dict[str, set[int]] = {}
    current: set[int] | None = None
    in_header = False  # `+++ ` is a header only between `diff --git` and the first hunk
    for line in diff.split(b"\n"):
        if line.startswith(b"diff --git "):
            in_header, current = True, None
        elif in_header and line.startswith(b"+++ "):
            target = line[4:].rstrip(b"\r")
            if target == b"/dev/null":  # a deleted file
                continue
            target = _unquote(target)
            if target.startswith(b"b/"):
                target = target[2:]
            current = changed.setdefault(os.fsdecode(target), set())
        elif line.startswith(b"@@ "):
            in_header = False
            match = _HUNK.match(line)
            if match and current is not None:
                start, count = int(match.group(1)), int(match.group(2) if match.group(2) is not None else 1)
                current.update(range(start, start + count))  # count 0: a pure deletion adds no rows
    return changed


def changed_lines(rev: str, cwd: str = ".") -> ChangedLines:
    """Rows of Python files added or modified since the merge base of `rev` and HEAD (work tree included)."""
    cwd = cwd if os.path.isdir(cwd) else "."
    try:
        top = os.fsdecode(_git(["rev-parse", "--show-toplevel"], cwd).strip())
    except _Failed:
        raise GitDiffError(
            f"--diff-base needs a git repository, and {os.path.abspath(cwd)} is not inside one"
        ) from None
    try:
        _git(["rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"], top)
    except _Failed:
        raise GitDiffError(f"--diff-base: unknown revision {rev!r} (fetch it first, e.g. `git fetch origin {rev}`)") from None
    try:
        base = os.fsdecode(_git(["merge-base", rev, "HEAD"], top).strip())
    except _Failed:
        raise GitDiffError(
            f"--diff-base: {rev!r} and HEAD have no common ancestor"
            " (in a shallow clone, fetch the history: actions/checkout with `fetch-depth: 0`)"
        ) from None
    try:
        diff = _git(
            [
                "-c", "core.quotePath=false", "diff", "-U0", "--no-color", "--no-ext-diff", "--no-textconv",
                "--find-renames", "--diff-filter=AMTCR", "--src-prefix=a/", "--dst-prefix=b/", base, "--",
            ],
            top,
        )
        untracked = _git(["ls-files", "-z", "--others", "--exclude-standard"], top)
    except _Failed as exc:
        raise GitDiffError(f"--diff-base: git diff failed: {exc}") from None

    result = ChangedLines(base=base, top=top)
    for relative, rows in parse_diff(diff).items():
        if relative.endswith(PYTHON_SUFFIXES):
            path = os.path.join(top, relative)
            result.lines[result._key(path)] = _notebook_rows(path, rows) if is_notebook(path) else rows
    for raw in untracked.split(b"\0"):
        relative = os.fsdecode(raw)
        if relative.endswith(PYTHON_SUFFIXES):
            result.lines[result._key(os.path.join(top, relative))] = None
    return result


def _notebook_rows(path: str, file_lines: set[int]) -> set[int] | None:
    """A notebook's changed `.ipynb` lines as rows of its program (findings' rows); None
    (the whole file) when it cannot be read: its error is reported either way."""
    try:
        return read_notebook(path).rows_on_file_lines(file_lines)
    except (OSError, NotebookError):
        return None
