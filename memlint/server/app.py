"""The pygls language server: diagnostics, code actions and hover for memlint's findings.

Linting runs in one worker thread, so the event loop keeps answering the
editor; a change waits `DEBOUNCE_S` for the next keystroke, and a lint whose
document changed meanwhile is thrown away (the latest text wins). A change's
lint computes what its own diagnostics need: the findings of the statements it
touched (server/statements.py keeps the others') and the parts of the project
summary that adjust its own findings; the rest of its summary, which only other
files' findings read, and the first scan of the project's files are computed in
a background process (its own core, low priority) and republish what they change.
State (documents, summaries) is only touched on the event loop.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import multiprocessing
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from memlint import __version__
from memlint.analysis.flow.project_facts import ProjectFacts
from memlint.analysis.project import OWN_PARTS
from memlint.config import ConfigError, Settings
from memlint.discovery import is_excluded
from memlint.engine import LintResult, lint_path, lint_text
from memlint.fixes import fix_source
from memlint.models import Applicability, Finding
from memlint.cache import facts_digest
from memlint.rules import documentation
from memlint.server import actions
from memlint.server.convert import Lines, contains, diagnostic, error_diagnostic, file_error_diagnostic, overlaps
from memlint.server.documents import Linted, Project, Projects, lower_priority, scan_summaries, summary_of
from memlint.server.incremental import IncrementalParser
from memlint.server.notebooks import code_cells

DEBOUNCE_S = 0.03  # a change waits this long for the next one before it is linted
SUMMARY_DELAY_S = 0.5  # the whole summary of an edited file once its text has been this long unchanged
CONFIG_NAME = "pyproject.toml"
PYTHON_SUFFIXES = (".py", ".pyi")

log = logging.getLogger(__name__)


class MemlintServer(LanguageServer):
    def __init__(self) -> None:
        notebooks = types.NotebookDocumentSyncOptions(
            notebook_selector=[
                types.NotebookDocumentFilterWithCells(
                    notebook=types.NotebookDocumentFilterNotebookType(notebook_type="jupyter-notebook"),
                    cells=[types.NotebookCellLanguage(language="python")],
                )
            ],
            save=True,
        )
        super().__init__(
            "memlint",
            __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            notebook_document_sync=notebooks,
        )
        self.projects = Projects()
        self.linted: dict[str, Linted] = {}  # uri -> last lint of an open document
        self.pending: dict[str, asyncio.Task] = {}  # uri -> its scheduled lint
        self.parsers: dict[str, IncrementalParser] = {}  # uri -> the parser that keeps its last module
        self.scans: set[asyncio.Task] = set()
        self.summarizing: dict[str, asyncio.Task] = {}  # uri -> its whole summary, computed once typing pauses
        self.lint_thread = ThreadPoolExecutor(1, thread_name_prefix="memlint-lint")
        self._background: Any = None  # the process pool of `in_background`, started on first use

    # ------------------------------------------------------------------ documents

    def open_uris(self) -> list[str]:
        return [uri for uri in self.workspace.text_documents if self.python_path(uri) is not None]

    def python_path(self, uri: str) -> str | None:
        """The file a document is, when it is a Python file memlint lints."""
        if not uri.startswith("file:"):
            return None
        path = to_fs_path(uri)
        if path is None or not path.endswith(PYTHON_SUFFIXES):
            return None
        return os.path.abspath(path)

    def schedule(self, uri: str, delay: float = 0.0) -> None:
        """Lint a document after `delay`; a lint scheduled before for it is dropped."""
        for tasks in (self.pending, self.summarizing):
            previous = tasks.pop(uri, None)
            if previous is not None:
                previous.cancel()
        self.pending[uri] = asyncio.get_running_loop().create_task(self._lint_document(uri, delay))

    async def _lint_document(self, uri: str, delay: float) -> None:
        try:
            if delay:
                await asyncio.sleep(delay)
            await self._lint_now(uri)
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - a bug here must not stop the server answering
            log.exception("linting %s failed", uri)
        finally:
            if self.pending.get(uri) is asyncio.current_task():
                del self.pending[uri]

    async def _lint_now(self, uri: str) -> None:
        cells = None
        if uri in self.workspace.notebook_documents:
            notebook = self.workspace.get_notebook_document(notebook_uri=uri)
            path = to_fs_path(uri) if uri.startswith("file:") else None
            if notebook is None or path is None:
                return
            path = os.path.abspath(path)
            cells = code_cells(notebook, lambda cell: self.workspace.get_text_document(cell).source)
            version, text = notebook.version, cells.joined.text
        else:
            path = self.python_path(uri)
            if path is None or uri not in self.workspace.text_documents:
                return
            document = self.workspace.get_text_document(uri)
            version, text = document.version, document.source
        try:
            project = self.projects.for_path(path)
        except ConfigError as exc:
            self.linted.pop(uri, None)
            target = cells.uris[0] if cells is not None and cells.uris else uri
            self.publish_raw(target, None if cells else version, [error_diagnostic(f"memlint: configuration error: {exc}")])
            return
        settings = project.settings
        if is_excluded(path, settings.exclude, settings.root):
            self.linted[uri] = Linted(version, text, LintResult(path), None, cells=cells)
            self.publish(uri)
            return
        parser = self.parsers.setdefault(uri, IncrementalParser())
        facts = project.index.facts_for(path)  # what the project's other files say of what it calls
        result = await asyncio.get_running_loop().run_in_executor(
            self.lint_thread, lint_own_parts, parser, path, text, settings, facts
        )
        if self.current_version(uri) != version:
            return  # a newer text is on its way, or the document was closed
        self.linted[uri] = Linted(version, text, result, project, cells=cells, facts=facts_digest(facts))
        # The other parts of the summary as they were: only other files' findings read them.
        summary = {**project.summaries.get(path, {}), **result.summary} if result.summary else {}
        changed = project.set_summary(path, summary)
        self.publish(uri)
        if changed:
            self.republish(project, skip=uri)
        if result.summary:
            task = asyncio.get_running_loop().create_task(self._summarize_later(uri, version, path, text, project))
            self.summarizing[uri] = task
        if project.scan and not project.scanned:
            project.scanned = True
            self.start_scan(project)

    async def _summarize_later(self, uri: str, version: int | None, path: str, text: str, project: Project) -> None:
        """The whole summary of the text once it has stayed for `SUMMARY_DELAY_S`, in the background process."""
        try:
            await asyncio.sleep(SUMMARY_DELAY_S)
            summary = await self.in_background(summary_of, path, text, project.settings, project.index.facts_for(path))
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - other files keep the summary they had
            log.exception("summarising %s failed", uri)
            return
        finally:
            if self.summarizing.get(uri) is asyncio.current_task():
                del self.summarizing[uri]
        if self.current_version(uri) == version and project.set_summary(path, summary):
            self.republish(project)

    def in_background(self, function: Any, *args: Any) -> asyncio.Future:
        """`function(*args)` in the background process: a core of its own, at low priority, so that
        it does not hold up the lint thread (the GIL) nor compete with it for the CPU."""
        if self._background is None:
            self._background = multiprocessing.get_context("spawn").Pool(1, initializer=lower_priority)
        loop = asyncio.get_running_loop()
        future = loop.create_future()

        def settle(value: Any = None, error: BaseException | None = None) -> None:
            if future.done():
                return
            if error is not None:
                future.set_exception(error)
            else:
                future.set_result(value)

        self._background.apply_async(
            function,
            args,
            callback=lambda value: loop.call_soon_threadsafe(settle, value),
            error_callback=lambda error: loop.call_soon_threadsafe(settle, None, error),
        )
        return future

    def stop_background(self) -> None:
        if self._background is not None:
            self._background.terminate()
            self._background = None

    def current_version(self, uri: str) -> int | None:
        """The document's (or notebook's) version now; None once it is closed."""
        if uri in self.workspace.notebook_documents:
            return self.workspace.get_notebook_document(notebook_uri=uri).version
        if uri in self.workspace.text_documents:
            return self.workspace.get_text_document(uri).version
        return None

    def publish(self, uri: str) -> None:
        linted = self.linted[uri]
        findings = linted.project.adjust(linted.result.findings) if linted.project else []
        linted.published = findings
        errors = [file_error_diagnostic(e) for e in linted.result.errors]
        if linted.cells is None:
            lines = self.lines(linted.text)
            self.publish_raw(uri, linted.version, [diagnostic(f, lines) for f in findings] + errors)
            return
        for index, cell_uri in enumerate(linted.cells.uris):  # every code cell: clears what was fixed
            found = self.cell_findings(linted, index)
            lines = self.lines(self.workspace.get_text_document(cell_uri).source)
            self.publish_raw(cell_uri, None, [diagnostic(f, lines) for f in found] + (errors if index == 0 else []))

    def cell_findings(self, linted: Linted, index: int) -> list[Finding]:
        assert linted.cells is not None
        moved = (linted.cells.to_cell(f) for f in linted.published)
        return [finding for item in moved if item is not None for k, finding in [item] if k == index]

    def view(self, uri: str) -> tuple[Linted, str, int | None, list[Finding]] | None:
        """What code actions and hover work on for a document or a notebook cell: its lint, its
        text, its version, its findings in its own rows; None when the lint is not of this text."""
        notebook = self.workspace.get_notebook_document(cell_uri=uri)
        if notebook is not None:
            linted = self.linted.get(notebook.uri)
            index = linted.cells.index_of(uri) if linted is not None and linted.cells is not None else None
            if index is None or notebook.version != linted.version:
                return None
            document = self.workspace.get_text_document(uri)
            return linted, document.source, document.version, self.cell_findings(linted, index)
        linted = self.linted.get(uri)
        if linted is None or self.current_version(uri) != linted.version:
            return None
        return linted, linted.text, linted.version, linted.published

    def publish_raw(self, uri: str, version: int | None, diagnostics: list[types.Diagnostic]) -> None:
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=version)
        )

    def republish(self, project: Project, skip: str | None = None) -> None:
        """Diagnostics of the project's other open documents whose adjusted findings changed; those
        whose callees' facts changed (a definition they call was edited) are linted again."""
        for uri, linted in list(self.linted.items()):
            if uri == skip or linted.project is not project:
                continue
            if facts_digest(project.index.facts_for(linted.result.path)) != linted.facts:
                self.schedule(uri)
            elif project.adjust(linted.result.findings) != linted.published:
                self.publish(uri)

    def lines(self, text: str) -> Lines:
        return Lines(text, self.workspace.position_codec)

    # ------------------------------------------------------------------ project summaries

    def start_scan(self, project: Project) -> None:
        task = asyncio.get_running_loop().create_task(self._scan(project))
        self.scans.add(task)
        task.add_done_callback(self.scans.discard)

    async def _scan(self, project: Project) -> None:
        try:
            summaries = await self.in_background(scan_summaries, project.settings)
        except Exception:  # noqa: BLE001 - without the scan, open files still get their own findings
            log.exception("reading the project summaries under %s failed", project.settings.root)
            return
        open_paths = {self.linted[uri].result.path for uri in self.linted}
        changed = False
        for path, summary in summaries.items():
            if path not in open_paths:  # an open buffer's summary is newer than the file on disk
                changed |= project.set_summary(path, summary)
        if changed:
            self.republish(project)

    async def refresh_from_disk(self, path: str) -> None:
        """A file that is not open changed on disk (or an open one was closed): its summary again."""
        try:
            project = self.projects.for_path(path)
        except ConfigError:
            return
        if is_excluded(path, project.settings.exclude, project.settings.root):
            return
        summary: dict[str, Any] = {}
        if project.scan and os.path.isfile(path):  # a lone file's project knows only open buffers
            codes = project.settings.codes_for(path)
            facts = ProjectFacts(project.index.facts_for(path))
            result = await asyncio.get_running_loop().run_in_executor(self.lint_thread, lint_path, path, codes, facts)
            summary = result.summary
        if any(linted.result.path == path for linted in self.linted.values()):
            return  # opened meanwhile: its buffer counts
        if project.set_summary(path, summary):
            self.republish(project)

    def reload_configuration(self) -> None:
        self.projects.reload()
        for linted in self.linted.values():
            linted.project = None  # its settings are gone; it is linted again below
        for uri in [*self.open_uris(), *self.workspace.notebook_documents]:
            self.schedule(uri)


def lint_own_parts(
    parser: IncrementalParser, path: str, text: str, settings: Settings, facts: dict[str, dict[str, Any]]
) -> LintResult:
    """A change's lint, with the facts of the project's definitions it calls: its findings, and of
    its summary the parts that adjust them."""
    parser.summary_parts = OWN_PARTS
    return lint_text(path, text, settings, parser=parser, project=ProjectFacts(facts))


server = MemlintServer()


@server.feature(types.INITIALIZE)
def initialize(ls: MemlintServer, params: types.InitializeParams) -> None:
    folders = [f.uri for f in params.workspace_folders or []] or ([params.root_uri] if params.root_uri else [])
    for uri in folders:
        path = to_fs_path(uri) if uri.startswith("file:") else None
        if path:
            ls.projects.folders.append(Path(os.path.abspath(path)))


@server.feature(types.INITIALIZED)
def initialized(ls: MemlintServer, params: types.InitializedParams) -> None:
    """Ask to be told of changed Python files and configurations the editor does not have open."""
    watched = ls.client_capabilities.workspace and ls.client_capabilities.workspace.did_change_watched_files
    if not (watched and watched.dynamic_registration):
        return
    options = types.DidChangeWatchedFilesRegistrationOptions(
        watchers=[types.FileSystemWatcher(glob_pattern=g) for g in ("**/*.py", "**/*.pyi", f"**/{CONFIG_NAME}")]
    )
    registration = types.Registration(
        id="memlint-watched-files", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES, register_options=options
    )
    ls.client_register_capability(types.RegistrationParams(registrations=[registration]))


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: MemlintServer, params: types.DidOpenTextDocumentParams) -> None:
    ls.schedule(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: MemlintServer, params: types.DidChangeTextDocumentParams) -> None:
    ls.schedule(params.text_document.uri, DEBOUNCE_S)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: MemlintServer, params: types.DidSaveTextDocumentParams) -> None:
    uri = params.text_document.uri
    if uri.endswith("/" + CONFIG_NAME):
        ls.reload_configuration()
    elif uri not in ls.pending:
        ls.schedule(uri)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
async def did_close(ls: MemlintServer, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    for tasks in (ls.pending, ls.summarizing):
        task = tasks.pop(uri, None)
        if task is not None:
            task.cancel()
    ls.parsers.pop(uri, None)
    linted = ls.linted.pop(uri, None)
    path = ls.python_path(uri)
    if path is None:
        return
    ls.publish_raw(uri, None, [])
    if linted is not None and linted.project is not None:
        await ls.refresh_from_disk(path)  # unsaved edits are gone: the file on disk counts again


@server.feature(types.NOTEBOOK_DOCUMENT_DID_OPEN)
def did_open_notebook(ls: MemlintServer, params: types.DidOpenNotebookDocumentParams) -> None:
    ls.schedule(params.notebook_document.uri)


@server.feature(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
def did_change_notebook(ls: MemlintServer, params: types.DidChangeNotebookDocumentParams) -> None:
    uri = params.notebook_document.uri
    linted = ls.linted.get(uri)
    structure = params.change.cells.structure if params.change.cells else None
    if linted is not None and linted.cells is not None and structure is not None:
        for cell in structure.did_close or []:  # a deleted cell keeps no diagnostics
            ls.publish_raw(cell.uri, None, [])
    ls.schedule(uri, DEBOUNCE_S)


@server.feature(types.NOTEBOOK_DOCUMENT_DID_SAVE)
def did_save_notebook(ls: MemlintServer, params: types.DidSaveNotebookDocumentParams) -> None:
    if params.notebook_document.uri not in ls.pending:
        ls.schedule(params.notebook_document.uri)


@server.feature(types.NOTEBOOK_DOCUMENT_DID_CLOSE)
def did_close_notebook(ls: MemlintServer, params: types.DidCloseNotebookDocumentParams) -> None:
    uri = params.notebook_document.uri
    for tasks in (ls.pending, ls.summarizing):
        task = tasks.pop(uri, None)
        if task is not None:
            task.cancel()
    ls.linted.pop(uri, None)
    for cell in params.cell_text_documents:
        ls.publish_raw(cell.uri, None, [])


@server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
async def did_change_watched_files(ls: MemlintServer, params: types.DidChangeWatchedFilesParams) -> None:
    paths = [to_fs_path(change.uri) for change in params.changes if change.uri.startswith("file:")]
    if any(path and os.path.basename(path) == CONFIG_NAME for path in paths):
        ls.reload_configuration()
        return
    open_paths = {ls.python_path(uri) for uri in ls.linted}
    for path in paths:
        if path and path.endswith(PYTHON_SUFFIXES) and os.path.abspath(path) not in open_paths:
            await ls.refresh_from_disk(os.path.abspath(path))


@server.feature(
    types.TEXT_DOCUMENT_CODE_ACTION,
    types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, actions.FIX_ALL_KIND]),
)
async def code_action(ls: MemlintServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    uri = params.text_document.uri
    view = ls.view(uri)
    if view is None or view[0].project is None:
        return []  # no lint of this text yet: the next one brings fresh findings
    linted, text, version, findings = view
    lines = ls.lines(text)
    editor = actions.Editor(uri, version, lines, versioned_edits(ls))
    only = params.context.only
    start, end = lines.from_client(params.range.start), lines.from_client(params.range.end)
    result: list[types.CodeAction] = []
    if actions.wanted(types.CodeActionKind.QuickFix, only):
        for finding in findings:
            if not overlaps(finding, start, end):
                continue
            for action in (actions.quick_fix(finding, editor), actions.ignore_line(finding, text, editor)):
                if action is not None:
                    result.append(action)
    safe = [f for f in linted.published if f.fix and f.fix.edits and f.fix.applicability is Applicability.SAFE]
    if safe and linted.cells is None and actions.wanted(actions.FIX_ALL_KIND, only):
        project = linted.project
        path = linted.result.path
        fixed = await asyncio.get_running_loop().run_in_executor(
            ls.lint_thread,
            lambda: fix_source(
                linted.text,
                path,
                project.settings.codes_for(path),
                fixable=lambda f: bool(project.adjust([f])),
                project=ProjectFacts(facts) if (facts := project.index.facts_for(path)) else None,
            ),
        )
        if fixed.text != linted.text:
            result.append(actions.fix_all(linted.text, fixed.text, editor))
    return result


def versioned_edits(ls: MemlintServer) -> bool:
    workspace = ls.client_capabilities.workspace
    return bool(workspace and workspace.workspace_edit and workspace.workspace_edit.document_changes)


@server.feature(types.TEXT_DOCUMENT_HOVER)
def hover(ls: MemlintServer, params: types.HoverParams) -> types.Hover | None:
    """The documentation of the rules flagged under the cursor (what `memlint explain` prints)."""
    view = ls.view(params.text_document.uri)
    if view is None:
        return None
    _, text, _, findings = view
    lines = ls.lines(text)
    position = lines.from_client(params.position)
    here = [f for f in findings if contains(f, position)]
    docs = [doc for doc in dict.fromkeys(documentation(f.code) for f in here) if doc]
    if not docs:
        return None
    return types.Hover(
        contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value="\n---\n\n".join(docs)),
        range=lines.range(here[0].location, here[0].end_location),
    )


@server.feature(types.SHUTDOWN)
def shutdown(ls: MemlintServer, params: None) -> None:
    for task in [*ls.pending.values(), *ls.summarizing.values(), *ls.scans]:
        task.cancel()
    ls.lint_thread.shutdown(wait=False, cancel_futures=True)
    ls.stop_background()


def serve() -> None:
    """Run on stdin/stdout until the editor says exit."""
    # A lint allocates tens of thousands of tree objects, and in this long-lived
    # process the collections they trigger cost: with the default thresholds a change
    # to a 2,000-line file took 216 ms, with these 136 ms (benchmarks/bench_server.py,
    # idle 2-core machine).
    gc.set_threshold(50_000, 20, 100)
    server.start_io()
