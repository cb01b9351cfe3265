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
    holding (`settle`)}. Beside it, a small file with what that run reported (`settled_output`): a
    later run over the same files, unchanged, reports it without reading the results of each file."""

    def __init__(self, directory: str, settings_fingerprint: str) -> None:
        tag = hashlib.blake2b(f"{_code_digest()}|{settings_fingerprint}".encode(), digest_size=8).hexdigest()
        self.directory = directory
        self.path = os.path.join(directory, f"{__version__}-{tag}.json")
        self.output_path = os.path.join(directory, f"{__version__}-{tag}.settled")
        self._entries: dict[str, dict[str, Any]] | None = None  # read on first use (`entries`)
        self._run: str | None = None
        self.dirty = False
        self._output: tuple[str, dict[str, Any]] | None = None  # (run, what it reported), to write
        self._output_changed = False

    @property
    def entries(self) -> dict[str, dict[str, Any]]:
        if self._entries is None:
            self._entries = {}
            try:
                with open(self.path, encoding="utf-8") as handle:
                    loaded = json.load(handle)
                if isinstance(loaded, dict) and isinstance(loaded.get("files"), dict):
                    self._entries, self._run = loaded["files"], loaded.get("settled")
            except (OSError, ValueError):
                pass
        return self._entries

    @property
    def run(self) -> str | None:
        self.entries  # noqa: B018 - read with them
        return self._run

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
            self._run = run
            self.dirty = True
        if self._output is None or self._output[0] != run:  # what a settled run reported holds for it alone
            self._output, self._output_changed = None, True

    def settled_output(self, run: str) -> dict[str, Any] | None:
        """What the run with key `run` reported (`keep_output`), where its results are still the cache's."""
        try:
            with open(self.output_path, encoding="utf-8") as handle:
                loaded = json.load(handle)
        except (OSError, ValueError):
            return None
        return loaded.get("output") if isinstance(loaded, dict) and loaded.get("run") == run else None

    def keep_output(self, run: str, output: dict[str, Any]) -> None:
        """Keep what the settled run with key `run` reported (JSON: findings, errors), until a result is put."""
        if self.run == run:
            self._output, self._output_changed = (run, output), True

    def save(self) -> None:
        if not self.dirty and not self._output_changed:
            return  # a run whose every file hits the cache writes nothing
        try:
            if self._output is None and os.path.exists(self.output_path):
                os.remove(self.output_path)  # first: it must never outlive the results it was made from
            if self.dirty or self._output is not None:
                os.makedirs(self.directory, exist_ok=True)
                gitignore = os.path.join(self.directory, ".gitignore")
                if not os.path.exists(gitignore):
                    with open(gitignore, "w", encoding="utf-8") as handle:
                        handle.write("# Automatically created by memlint.\n*\n")
            if self.dirty:
                self._write(self.path, {"files": self.entries, "settled": self.run})
                self.dirty = False
                for name in os.listdir(self.directory):  # results of other versions or settings
                    if name.endswith((".json", ".settled")) and os.path.join(self.directory, name) not in (
                        self.path, self.output_path
                    ):
                        os.remove(os.path.join(self.directory, name))
            if self._output is not None:
                self._write(self.output_path, {"run": self._output[0], "output": self._output[1]})
            self._output_changed = False
        except OSError:
            pass  # a read-only checkout still lints; it just is not cached

    def _write(self, path: str, data: dict[str, Any]) -> None:
        import tempfile  # here: a run whose every file hits the cache writes nothing

        fd, tmp = tempfile.mkstemp(dir=self.directory, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(json.dumps(data))  # (`json.dump` encodes in Python, 4x slower)
        os.replace(tmp, path)
