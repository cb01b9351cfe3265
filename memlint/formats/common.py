"""Helpers shared by the CI formats: repository-relative paths, source lines, fingerprints."""

from __future__ import annotations

import hashlib
import os
import re
from collections import defaultdict
from pathlib import Path

from memlint.models import Finding, Position, Severity
from memlint.notebook import Notebook, NotebookError, is_notebook, read_notebook
from memlint.rules.catalog import RULES, SYNTAX_ERROR, UNREADABLE, UNUSED_NOQA

TOOL_NAME = "memlint"
INFORMATION_URI = "https://github.com/memlint/memlint"
# The documentation site (docs/, built by MkDocs and published on the project's GitHub Pages).
DOCUMENTATION_URL = "https://memlint.github.io/memlint/"
FINGERPRINT_KEY = "memlint/v1"

_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # what the parser counts as a line break (not \f, \v, U+2028)


def rule_help_uri(code: str) -> str:
    """Where a rule's documentation lives (SARIF `helpUri`, the language server's `codeDescription`):
    its page of the documentation site, which is generated from the text `memlint explain` prints."""
    names = {rule_code: name for rule_code, name, *_ in (*RULES, SYNTAX_ERROR, UNREADABLE, UNUSED_NOQA)}
    name = names.get(code)
    return f"{DOCUMENTATION_URL}rules/{name}/" if name else f"{DOCUMENTATION_URL}rules/"


def repository_root(root: str | os.PathLike[str]) -> Path:
    """The git work tree that holds `root` (code scanning wants paths relative to it), else `root`."""
    start = Path(root).resolve()
    for directory in [start, *start.parents]:
        if (directory / ".git").exists():
            return directory
    return start


def relative_path(filename: str, base: str | os.PathLike[str]) -> str:
    """`filename` relative to `base` with `/` separators; absolute when outside it."""
    absolute = os.path.realpath(filename)
    base_path = os.path.realpath(base)
    try:
        relative = os.path.relpath(absolute, base_path)
    except ValueError:  # another drive on Windows
        relative = None
    if relative is None or relative == os.pardir or relative.startswith(os.pardir + os.sep):
        return absolute.replace(os.sep, "/")
    return relative.replace(os.sep, "/")


def severity_rank(finding: Finding) -> int:
    return 0 if finding.severity is Severity.ERROR else 1


def most_severe_first(findings: list[Finding]) -> list[Finding]:
    return sorted(findings, key=lambda f: (severity_rank(f), f.sort_key()))


class Sources:
    """Lines of the linted files, read once each, decoded as the engine decodes them."""

    def __init__(self) -> None:
        self._lines: dict[str, list[str]] = {}
        self._notebooks: dict[str, Notebook | None] = {}

    def lines(self, filename: str) -> list[str]:
        key = os.path.abspath(filename)
        if key not in self._lines:
            from memlint.engine import DecodeError, read_source

            notebook = self.notebook(filename)
            try:
                text = notebook.text if notebook is not None else read_source(filename).text
            except (OSError, DecodeError):
                text = ""
            self._lines[key] = _LINE_BREAK.split(text)
        return self._lines[key]

    def notebook(self, filename: str) -> Notebook | None:
        """The notebook a finding's rows refer to (None for a Python file, or one that cannot be read)."""
        if not is_notebook(filename):
            return None
        key = os.path.abspath(filename)
        if key not in self._notebooks:
            try:
                self._notebooks[key] = read_notebook(filename)
            except (OSError, NotebookError):
                self._notebooks[key] = None
        return self._notebooks[key]

    def in_cell(self, filename: str, where: Position) -> tuple[int, Position] | None:
        """(cell number, position within the cell) of a position in a notebook's program; None for a Python file."""
        notebook = self.notebook(filename)
        if notebook is None:
            return None
        cell, line = notebook.code.locate(where.row)
        return cell, Position(line, where.column)

    def cell_prefix(self, finding: Finding) -> str:
        """`cell 4, line 3, column 9: ` for a notebook finding (formats whose locations are
        lines of the `.ipynb` file say where in the cell), else ``."""
        found = self.in_cell(finding.filename, finding.location)
        if found is None:
            return ""
        cell, where = found
        return f"cell {cell}, line {where.row}, column {where.column}: "

    def file_row(self, filename: str, row: int) -> int:
        """The line of the file on disk that holds `row`: for a notebook, the `.ipynb` line of that cell line."""
        notebook = self.notebook(filename)
        return notebook.file_line(row) if notebook is not None else row

    def file_rows(self, finding: Finding) -> tuple[int, int]:
        """First and last line of the file on disk that the finding covers."""
        return (
            self.file_row(finding.filename, finding.location.row),
            self.file_row(finding.filename, max(finding.location, finding.end_location).row),
        )

    def line(self, filename: str, row: int) -> str:
        lines = self.lines(filename)
        return lines[row - 1] if 1 <= row <= len(lines) else ""

    def flagged_text(self, finding: Finding) -> str:
        """The stripped text of the lines a finding covers."""
        first = finding.location.row
        last = max(first, finding.end_location.row)
        return "\n".join(self.line(finding.filename, row).strip() for row in range(first, last + 1))

    def byte_column(self, filename: str, row: int, column: int) -> int:
        """A 1-based character column as a 1-based UTF-8 byte column."""
        line = self.line(filename, row)
        return len(line[: max(column - 1, 0)].encode("utf-8")) + max(column - 1 - len(line), 0) + 1


def fingerprints(findings: list[Finding], base: str | os.PathLike[str], sources: Sources) -> list[str]:
    """One fingerprint per finding (same order) that survives unrelated lines moving.

    It hashes the rule code, the repository-relative path, the stripped text of
    the flagged line(s) and the finding's index among findings with that same
    (code, path, text) in source order; never the line number.
    """
    groups: dict[tuple[str, str, str], list[int]] = defaultdict(list)
    keys: list[tuple[str, str, str]] = []
    for index, finding in enumerate(findings):
        key = (finding.code, relative_path(finding.filename, base), sources.flagged_text(finding))
        keys.append(key)
        groups[key].append(index)
    occurrence: dict[int, int] = {}
    for members in groups.values():
        ordered = sorted(members, key=lambda i: (findings[i].location, findings[i].end_location))
        for position, index in enumerate(ordered):
            occurrence[index] = position
    result = []
    for index, (code, path, text) in enumerate(keys):
        payload = "\0".join((code, path, text, str(occurrence[index])))
        result.append(hashlib.sha256(payload.encode("utf-8")).hexdigest()[:32])
    return result


def message_with_hint(finding: Finding) -> str:
    return f"{finding.message}\nhelp: {finding.hint}" if finding.hint else finding.message
