"""The project's definitions as the process that analyses a file sees them during a command-line run.

A run's first phase analyses the files in worker processes, and each analysis looks up the facts
of the names it asks about as it goes (`ProjectFacts.lookup`): in the summaries of the files
analysed so far, which the parent hands each worker with its next job (`Shipments`), only the
parts that answer such questions (a file's imports and its definitions' facts). An analysis that
asked before the defining file was done gets no answer; the parent finds it afterwards, since
every answer is kept in the file's summary (`questions.same_answers`), and analyses it again.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Callable, Collection

from memlint.analysis.questions import CALLERS, OVERRIDES
from memlint.project_index import ProjectIndex, module_name, package_module_name

# The parts of a summary that `ProjectIndex.fact` reads of the files that define what is asked (and of
# every file, whether it differentiates and the attributes it sets on objects: `project:` questions).
ANSWERING_PARTS = ("imports", "flow", "differentiates", "object_attributes")


class ProjectView:
    """One process's copy of the answering parts of the project's summaries."""

    def __init__(
        self, paths: list[str], root: Path, imported: Collection[str] = (), names: Collection[tuple[str, str]] = ()
    ) -> None:
        self.summaries: dict[str, dict[str, Any]] = {path: {} for path in paths}
        self.index = ProjectIndex(self.summaries, root)
        self.imported = set(imported)  # files that other files of the project import from
        self.names = names  # (file, name) of the definitions other files import by name

    def update(self, parts: dict[str, dict[str, Any]]) -> None:
        if parts:
            self.index.learn(parts)

    def asking(self, path: str, imports: dict[str, list]) -> None:
        """The imports of the file whose analysis asks next: its questions are names as it writes
        them (its summary, with them, comes only after the analysis)."""
        if self.summaries[path].get("imports") != imports:
            self.index.learn({path: {**self.summaries[path], "imports": imports}})

    def lookup(self, path: str, callers: dict[str, dict[str, Any]] | None = None) -> Callable[[str], dict[str, Any] | None]:
        """The facts of each question of `path`'s analysis; `callers`: the parent's answers about how
        other files use its own definitions (`ProjectIndex.callers_facts`, which need every file's calls)."""

        def fact(question: str) -> dict[str, Any] | None:
            if question.startswith(CALLERS) and callers is None:
                # before the callers are analysed, a guess: a function that other files import is
                # called with grad on (mostly so; a wrong guess is found with the other answers)
                name = question.removeprefix(CALLERS).partition(".")[0]
                return {"grad_on": True} if (path, name) in self.names else None
            if question.startswith((CALLERS, OVERRIDES)):
                return (callers or {}).get(question)
            return self.index.fact(path, question)

        return fact


_view: ProjectView | None = None


def start(
    paths: list[str], root: Path, imported: Collection[str] = (), names: Collection[tuple[str, str]] = ()
) -> None:
    """Look up facts from now on (before the workers start: they inherit the view)."""
    global _view
    _view = ProjectView(paths, root, imported, names)


def imported(path: str) -> bool:
    """Do other files of the project import from `path` (its summary answers them, whatever rules
    need to read it)? False outside a run of `lint_files`."""
    return _view is not None and path in _view.imported


def called_from_elsewhere(path: str) -> None:
    """Other files of the project call definitions of `path` (the answers about its callers say so):
    it counts as imported, though the run read the imports of the files that changed alone (a warm
    run: `edges` of its first phase)."""
    if _view is not None:
        _view.imported.add(path)


def stop() -> None:
    global _view
    _view = None


def lookup_for(path: str, callers: dict[str, dict[str, Any]] | None = None) -> Callable[[str], dict[str, Any] | None] | None:
    """The look-up of `path`'s analysis, None outside a run of `lint_files`."""
    return _view.lookup(path, callers) if _view is not None else None


def asking(path: str, imports: Callable[[], dict[str, list]]) -> None:
    """(`ProjectView.asking`; `imports` computed only in a run of `lint_files`)"""
    if _view is not None and path in _view.summaries:
        _view.asking(path, imports())


def update(parts: dict[str, dict[str, Any]]) -> None:
    if _view is not None:
        _view.update(parts)


def answering(summaries: dict[str, dict[str, Any] | None]) -> dict[str, dict[str, Any]]:
    """The parts of `summaries` that answer other files' questions."""
    return {path: {part: s[part] for part in ANSWERING_PARTS if part in s} if s else {} for path, s in summaries.items()}


class Shipments:
    """What each worker has been handed of the summaries: a job carries those that are new to its
    worker (once each, the latest), the parent's own process counting as worker -1."""

    def __init__(self) -> None:
        self.log: list[tuple[str, dict[str, Any]]] = []
        self.cursors: dict[int, int] = {}

    def publish(self, path: str, summary: dict[str, Any] | None) -> None:
        self.log.extend(answering({path: summary}).items())

    def attach(self, worker: int, job: tuple) -> tuple:
        """`job` with the summaries new to `worker` (`workers.Workers.map`)."""
        start = self.cursors.get(worker, 0)
        self.cursors[worker] = len(self.log)
        return (*job, dict(self.log[start:]))


_IMPORT = re.compile(
    rb"^[ \t]*(?:from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]*)|import[ \t]+([\w., \t]+))", re.MULTILINE
)
_ATTRIBUTE_CALL = re.compile(rb"\.(\w+)\(")
_KEYWORD = b"import"
_REEXPORT_DEPTH = 3  # as `ProjectIndex` follows them


def import_edges(paths: list[str], root: Path) -> tuple[dict[str, list[str]], set[tuple[str, str]]]:
    """Each file of `paths` -> the files of the project that define what it imports (`_Imports`);
    and the names that other files import by name, with the file that defines them."""
    imports = _Imports(paths, root)
    return imports.edges(), imports.names


def callees_first(paths: list[str], edges: dict[str, list[str]]) -> list[str]:
    """`paths` in an order where a file comes after the files of the project that define what it
    imports (`edges`), where the imports allow one (a cycle is cut where it closes): then most files
    of a run's first phase find the facts of what they call already known. The imports are read from
    the text with a pattern, not parsed: the order is a heuristic, every answer is checked afterwards."""
    order: list[str] = []
    seen: set[str] = set()
    for start in paths:
        if start in seen:
            continue
        seen.add(start)
        stack = [(start, iter(edges[start]))]
        while stack:
            path, following = stack[-1]
            for other in following:
                if other not in seen:
                    seen.add(other)
                    stack.append((other, iter(edges[other])))
                    break
            else:
                stack.pop()
                order.append(path)
    return order


class _Imports:
    """The project's files each file imports from, by the files that define the names: a name
    imported from a package's `__init__.py` leads where that file imports it from. A whole package
    imported (`import pkg.sub as s`) leads nowhere: its `__init__.py` imports much of the project,
    and would join most files in one cycle."""

    def __init__(self, paths: list[str], root: Path) -> None:
        self.modules = {path: package_module_name(path) or module_name(path, root) for path in paths}
        self.by_module = {module_name(p, root): p for p in paths} | {m: p for p, m in self.modules.items()}
        self.statements: dict[str, list[tuple[str | None, list[str]]]] = {}
        self.names: set[tuple[str, str]] = set()  # (file, name) that other files import by name and may call
        self.attribute_calls: dict[str, set[str]] = {}  # file -> the names it calls as attributes (`ops.f(...)`)

    def edges(self) -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        for path in self.modules:
            targets: list[str] = []
            for module, names in self._statements(path):
                if module is None:
                    for other in filter(None, (self._file(path, name) for name in names)):
                        self._module_imported(path, other)
                        if not _package(other):
                            targets.append(other)
                    continue
                other = self._file(path, module)
                for name in names:
                    self._defining(path, module, name, other, targets, calls=not _package(path))
                if not names and other is not None:
                    targets.append(other)
            found[path] = [t for t in dict.fromkeys(targets) if t != path]
        return found

    def _defining(
        self, path: str, module: str, name: str, other: str | None, into: list[str], depth: int = 0, calls: bool = True
    ) -> None:
        """The files that `name` imported from `module` (`other`: its file) comes from, into
        `into`: the file that defines it, and the files it is re-exported through (a package's
        `__init__.py`, mostly: the project index follows them to the definition). `calls`: the
        importing file may call it (a package's `__init__.py` re-exports it, and calls nothing)."""
        submodule = self._file(path, f"{module}.{name}")
        if submodule is not None:
            into.append(submodule)
            if calls and not depth:
                self._module_imported(path, submodule)
            return
        if other is None:
            return
        into.append(other)
        if depth < _REEXPORT_DEPTH:
            for inner, names in self._statements(other):
                if inner is not None and name in names:  # a re-export (in a package's `__init__.py`, mostly)
                    self._defining(other, inner, name, self._file(other, inner), into, depth + 1, calls)
                    return
        if calls:
            self.names.add((other, name))

    def _module_imported(self, path: str, module: str) -> None:
        """`path` imports the module `module` whole (`from pkg import ops`, `import pkg.ops as ops`):
        the names it calls as attributes (`ops.f(...)`) may be the module's functions, or those its
        `__init__.py` re-exports."""
        if _package(path):
            return
        called = self.attribute_calls.get(path, set())
        if not _package(module):
            self.names.update((module, name) for name in called)
            return
        for inner, names in self._statements(module):
            for name in called.intersection(names) if inner is not None else ():
                self._defining(module, inner, name, self._file(module, inner), [], 1)

    def _file(self, path: str, module: str) -> str | None:
        package = self.modules[path].rpartition(".")[0] if not path.endswith("__init__.py") else self.modules[path]
        return self.by_module.get(module) or (self.by_module.get(f"{package}.{module}") if package else None)

    def _statements(self, path: str) -> list[tuple[str | None, list[str]]]:
        """The file's imports: (module, names) for `from module import names` (relative ones made
        absolute), (None, modules) for `import modules`."""
        if path in self.statements:
            return self.statements[path]
        text = b""
        if os.path.isfile(path):  # not a FIFO: reading one waits forever (its analysis says what it is)
            try:
                with open(path, "rb") as handle:
                    text = handle.read()
            except OSError:
                pass
        package = self.modules[path].split(".")
        if not path.endswith("__init__.py"):
            package = package[:-1]
        found: list[tuple[str | None, list[str]]] = []
        self.attribute_calls[path] = {name.decode() for name in _ATTRIBUTE_CALL.findall(text)}
        for dots, target, names, plain in _import_statements(text):
            if plain:
                found.append((None, [name.split()[0].decode() for name in plain.split(b",") if name.split()]))
                continue
            module = target.decode()
            if dots:
                up = package[: len(package) - (len(dots) - 1)] if len(dots) > 1 else package
                module = ".".join([*up, module] if module else up)
            found.append((module, [name.split()[0].decode() for name in names.strip(b"()").split(b",") if name.split()]))
        self.statements[path] = found
        return found


def _import_statements(text: bytes) -> list[tuple[bytes, bytes, bytes, bytes]]:
    """`_IMPORT.findall(text)`, tried only at the starts of the lines that hold `import` (a match
    starts at one: its keywords stand on its first line) instead of at every character."""
    found = []
    end = 0  # where the last match ended: the next starts after it
    at = text.find(_KEYWORD)
    while at >= 0:
        start = text.rfind(b"\n", 0, at) + 1
        if start >= end:
            match = _IMPORT.match(text, start)
            if match is not None:
                found.append(match.groups(b""))
                end = match.end()
        line_end = text.find(b"\n", at)
        if line_end < 0:
            break
        at = text.find(_KEYWORD, max(end, line_end))
    return found


def _package(path: str) -> bool:
    return path.endswith("__init__.py")
