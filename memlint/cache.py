"""`.memlint_cache/`: findings keyed on file content, memlint version and settings."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import replace
from typing import Any

from memlint import __version__
from memlint.models import FileError, Finding

CACHE_DIR = ".memlint_cache"


def _code_digest() -> str:
    """memlint's version and its own source: an edited rule (a development
    install) must not be answered from a cache the old rule filled."""
    digest = hashlib.blake2b(__version__.encode(), digest_size=16)
    package = os.path.dirname(os.path.abspath(__file__))
    for directory, _, files in sorted(os.walk(package)):
        for name in sorted(files):
            if name.endswith(".py"):
                with open(os.path.join(directory, name), "rb") as handle:
                    digest.update(handle.read())
    return digest.hexdigest()


def content_key(raw: bytes, codes: list[str]) -> str:
    digest = hashlib.blake2b(raw, digest_size=16)
    digest.update(repr(codes).encode())
    return digest.hexdigest()


def facts_digest(facts: dict[str, dict[str, Any]]) -> str:
    """The facts of other files that a file's analysis read (`ProjectIndex.facts_for`), in a few
    bytes ("" for none): with its content, the key of its findings."""
    if not facts:
        return ""
    return hashlib.blake2b(json.dumps(facts, sort_keys=True).encode(), digest_size=12).hexdigest()


def run_key(keys: dict[str, str], root: object) -> str:
    """A run's files as given (`keys`: each one's content key) and the project root that names
    their modules: a later run over the same files, unchanged, has the same key."""
    digest = hashlib.blake2b(str(root).encode(), digest_size=16)
    for path in sorted(keys):
        digest.update(f"\0{path}\0{keys[path]}".encode())
    return digest.hexdigest()


class Cache:
    """One JSON file per (version, settings): {"files": {absolute path: {key, findings, errors,
    summary}}, "settled": the key of the run that left them, where it ended with every file's answers
    holding (`settle`)}."""

    def __init__(self, directory: str, settings_fingerprint: str) -> None:
        tag = hashlib.blake2b(f"{_code_digest()}|{settings_fingerprint}".encode(), digest_size=8).hexdigest()
        self.directory = directory
        self.path = os.path.join(directory, f"{__version__}-{tag}.json")
        self.entries: dict[str, dict[str, Any]] = {}
        self.run: str | None = None
        self.dirty = False
        try:
            with open(self.path, encoding="utf-8") as handle:
                loaded = json.load(handle)
            if isinstance(loaded, dict) and isinstance(loaded.get("files"), dict):
                self.entries, self.run = loaded["files"], loaded.get("settled")
        except (OSError, ValueError):
            self.entries = {}

    def get(self, path: str, key: str) -> tuple[list[Finding], list[FileError], dict] | None:
        """Findings, errors and project-index summary of an unchanged file."""
        entry = self.entries.get(os.path.abspath(path))
        try:
            if not entry or entry.get("key") != key:
                return None
            findings = [
                replace(Finding.from_json({**f, "filename": path}), extra=f.get("extra", {})) for f in entry["findings"]
            ]
            errors = [FileError(path, e["message"], e.get("internal", False)) for e in entry["errors"]]
            summary = entry.get("summary", {})
        except Exception:  # noqa: BLE001 - an entry edited or damaged by hand is a miss, never a crash
            return None
        return findings, errors, summary if isinstance(summary, dict) else {}

    def put(
        self,
        path: str,
        key: str,
        findings: list[Finding],
        errors: list[FileError],
        summary: dict | None = None,
    ) -> None:
        """Remember a file's results; without its project summary (a lint of one
        file on its own, as --fix does) forget the file instead, so that the next
        run lints it again and the project index stays whole. Either way, what the last run left is
        no longer all there is (`settled`)."""
        self.settle(None)
        if summary is None or any(e.internal or e.note for e in errors):
            # and never cache a crash (the next version may not crash) or a stop on the clock
            self.dirty |= self.entries.pop(os.path.abspath(path), None) is not None
            return
        self.entries[os.path.abspath(path)] = {
            "key": key,
            "findings": [{**f.to_json(), "extra": f.extra} for f in findings],
            "errors": [{"message": e.message, "internal": e.internal} for e in errors],
            "summary": summary,
        }
        self.dirty = True

    def settled(self, run: str) -> bool:
        """Did the run with key `run` (`run_key`) leave these results, ending where every file's
        answers held? A run over the same files, all hits, then has nothing to check."""
        return self.run == run

    def settle(self, run: str | None) -> None:
        """Record how the project phase of the run with key `run` ended: every file's answers holding
        (None: not, or with results the cache does not keep)."""
        if self.run != run:
            self.run = run
            self.dirty = True

    def save(self) -> None:
        if not self.dirty:
            return
        import tempfile  # here: a run whose every file hits the cache writes nothing

        try:
            os.makedirs(self.directory, exist_ok=True)
            gitignore = os.path.join(self.directory, ".gitignore")
            if not os.path.exists(gitignore):
                with open(gitignore, "w", encoding="utf-8") as handle:
                    handle.write("# Automatically created by memlint.\n*\n")
            fd, tmp = tempfile.mkstemp(dir=self.directory, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump({"files": self.entries, "settled": self.run}, handle)
            os.replace(tmp, self.path)
            for name in os.listdir(self.directory):  # results of other versions or settings
                if name.endswith(".json") and os.path.join(self.directory, name) != self.path:
                    os.remove(os.path.join(self.directory, name))
        except OSError:
            pass  # a read-only checkout still lints; it just is not cached
