"""What the language server knows: settings per project, per-file summaries, open documents."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memlint.cache import CACHE_DIR, Cache
from memlint.config import Settings, find_pyproject, load_settings
from memlint.discovery import discover
from memlint.engine import LintResult, lint_text
from memlint.models import Finding
from memlint.project_index import ProjectIndex
from memlint.server.notebooks import Cells
from memlint.workers import lint_files


class Project:
    """The files under one configuration: its settings and the summaries its project index joins.

    A file's summary comes from its open buffer when it is open, else from the
    file on disk (read once by `scan_summaries`, refreshed when the file changes).
    """

    def __init__(self, settings: Settings, scan: bool) -> None:
        self.settings = settings
        self.scan = scan  # whether to read the summaries of the files on disk (a project, not a lone file)
        self.scanned = False
        self.summaries: dict[str, dict[str, Any]] = {}
        self.index = ProjectIndex({}, settings.root)

    def set_summary(self, path: str, summary: dict[str, Any] | None) -> bool:
        """Record `path`'s summary (None or empty: it has none); whether the index changed."""
        old = self.summaries.get(path)
        if summary:
            self.summaries[path] = summary
        else:
            self.summaries.pop(path, None)
        if old == self.summaries.get(path):
            return False
        self.index = ProjectIndex(dict(self.summaries), self.settings.root)
        return True

    def adjust(self, findings: list[Finding]) -> list[Finding]:
        return self.index.adjust(findings, self.settings.preview)


def scan_summaries(settings: Settings) -> dict[str, dict[str, Any]]:
    """The project summaries of every file `memlint` would lint under the project root, through
    the CLI's cache (in the server's background process, which forks no workers of its own)."""
    found = discover([str(settings.root)], settings.exclude, settings.root, settings.include)
    files = [os.path.abspath(path) for path in found.files]
    cache = Cache(str(settings.root / CACHE_DIR), settings.fingerprint())
    run = lint_files(files, settings, cache, workers=1)
    return dict(run.index.summaries) if run.index is not None else {}


def summary_of(path: str, text: str, settings: Settings, facts: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The whole project summary of an open document's text, read with the facts of the definitions
    it calls (the server's lints while typing compute only the parts that adjust the document's own
    findings)."""
    from memlint.analysis.flow.project_facts import ProjectFacts

    return lint_text(path, text, settings, project=ProjectFacts(facts)).summary


def lower_priority() -> None:
    """The background process's start: its work yields the CPU to the server's (where the OS lets it)."""
    if hasattr(os, "nice"):
        os.nice(10)


@dataclass
class Linted:
    """The last lint of an open document: what the diagnostics and code actions describe."""

    version: int | None
    text: str
    result: LintResult
    project: Project | None
    published: list[Finding] = field(default_factory=list)  # after the project's adjustments
    cells: Cells | None = None  # a notebook: `text` is its code cells joined
    facts: str = ""  # the digest of the project facts it was linted with (project_index.facts_digest)


class Projects:
    """Settings of the closest pyproject.toml, one Project per configuration, reloaded on demand."""

    def __init__(self) -> None:
        self.folders: list[Path] = []  # the editor's workspace folders
        self._projects: dict[tuple[str, str], Project] = {}

    def reload(self) -> None:
        """Forget every configuration (a pyproject.toml changed); the next look-up reads them again."""
        self._projects.clear()

    def for_path(self, path: str) -> Project:
        """The project of a file; raises ConfigError for a broken configuration."""
        directory = Path(path).parent
        config = find_pyproject(directory)
        folder = self._folder_of(path)
        key = (str(config) if config else "", str(folder) if folder and not config else "")
        project = self._projects.get(key)
        if project is None:
            start = config.parent if config else (folder or directory)
            settings = load_settings(config_file=config, start=start)
            project = Project(settings, scan=config is not None or folder is not None)
            self._projects[key] = project
        return project

    def all(self) -> list[Project]:
        return list(self._projects.values())

    def _folder_of(self, path: str) -> Path | None:
        absolute = Path(os.path.abspath(path))
        inside = [f for f in self.folders if f == absolute or f in absolute.parents]
        return max(inside, key=lambda f: len(f.parts)) if inside else None

