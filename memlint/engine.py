"""Discover files -> read and decode -> parse -> one pass running every rule -> findings.

A file is parsed with `ast` and analysed on a light tree (LibCST's node classes built from it,
analysis/syntax/light.py); only a file where a rule reports something is parsed with LibCST and
analysed again, so that findings, messages and fixes come from the tree of the text as written."""

from __future__ import annotations

import ast
import gc
import io
import os
import re
import stat
import sys
import tokenize
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import repeat
from typing import TYPE_CHECKING, Collection, Iterable, Iterator, Protocol, Sequence

import libcst as cst

from memlint.analysis import SemanticModel
from memlint.analysis.flow.project_facts import ProjectFacts
from memlint.analysis.syntax.light import LightModule, light_module
from memlint.analysis.syntax.as_written import as_written
from memlint.analysis.syntax.tree import Tree
from memlint.analysis.project import SUMMARY_NEEDLES, imports, summarize
from memlint.analysis.regions.guards import never_runs
from memlint.analysis.questions import ANSWERS, CALLERS, OVERRIDES, PROJECT
from memlint.budget import BudgetExceeded, Guard
from memlint.cache import content_key
from memlint.models import Applicability, Edit, FileError, Finding, Fix, LintResult, Position, Severity, describe
from memlint.notebook import Notebook, NotebookError, is_notebook, parse_notebook
from memlint.parsing import parse_module, python_ast
from memlint import project_view
from memlint.project_view import imported, lookup_for
from memlint.rules import BY_CODE, FILE_CODES, SYNTAX_ERROR, UNREADABLE, UNUSED_NOQA
from memlint.rules.catalog import RULES
from memlint.rules.base import FixSpec, Report, Rule
from memlint.screen import needs_tree
from memlint.suppression import EVERY_RULE, file_exemptions, is_recording, is_suppressed, recording, skips_file
from memlint.unused_noqa import unused_noqa

if TYPE_CHECKING:
    from memlint.config import Settings


@dataclass
class SourceFile:
    """A file's text as Python sees it, plus what is needed to write it back.

    For a notebook, `text` is its code cells joined into one program
    (memlint/notebook.py) and `notebook` maps it back to the cells.
    """

    path: str
    text: str
    encoding: str
    bom: bool
    raw: bytes
    notebook: Notebook | None = None


class DecodeError(Exception):
    pass


def decode(raw: bytes) -> tuple[str, str, bool]:
    """Decode source bytes per PEP 263 (cookie or BOM, else UTF-8)."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(raw).readline)
    except SyntaxError:
        # A cookie naming a codec that only exists at run time (`# -*- coding: future_fstrings -*-`
        # registers one on import) still has UTF-8 text under it: read it as UTF-8, like the
        # codec would after its rewrite; text that is not UTF-8 fails below with the byte named.
        encoding = "utf-8"
    bom = encoding == "utf-8-sig"
    try:
        text = raw.decode(encoding)
    except (UnicodeDecodeError, LookupError) as exc:
        where = ""
        if isinstance(exc, UnicodeDecodeError):
            line = raw[: exc.start].count(b"\n") + 1
            where = f" (byte 0x{raw[exc.start]:02x} on line {line}; no PEP 263 coding cookie says otherwise)"
        raise DecodeError(f"cannot decode as {encoding}{where}") from None
    if text.startswith("\ufeff"):
        text = text[1:]
    return text, encoding, bom


class NotAFile(OSError):
    pass


def read_source(path: str) -> SourceFile:
    """The one way memlint reads code: a `.py` file decoded, a notebook's cells joined."""
    kind = stat.S_IFMT(os.stat(path).st_mode)
    if kind != stat.S_IFREG and kind != stat.S_IFDIR:  # opening a FIFO would wait for a writer forever
        raise NotAFile(f"is not a regular file ({_KINDS.get(kind, 'a special file')})")
    with open(path, "rb") as handle:
        raw = handle.read()
    return source_from_bytes(path, raw)


_KINDS = {stat.S_IFIFO: "a FIFO", stat.S_IFSOCK: "a socket", stat.S_IFCHR: "a character device", stat.S_IFBLK: "a block device"}


def source_from_bytes(path: str, raw: bytes) -> SourceFile:
    """A file's source from its bytes (read from disk, or from standard input)."""
    if is_notebook(path):
        try:
            notebook = parse_notebook(raw, path)
        except NotebookError as exc:
            raise DecodeError(str(exc)) from None
        return SourceFile(path, notebook.text, "utf-8", raw.startswith(b"\xef\xbb\xbf"), raw, notebook)
    text, encoding, bom = decode(raw)
    return SourceFile(path, text, encoding, bom, raw)


def read_or_error(path: str) -> tuple[SourceFile | None, FileError | None]:
    """The file's source, or the one-line error that says why it cannot be read."""
    try:
        return read_source(path), None
    except FileNotFoundError:
        return None, FileError(path, "file vanished before it could be read")
    except IsADirectoryError:
        return None, FileError(path, "is a directory, not a file")
    except NotAFile as exc:
        return None, FileError(path, str(exc))
    except OSError as exc:
        return None, FileError(path, f"cannot read: {exc.strerror or exc}")
    except DecodeError as exc:
        return None, FileError(path, str(exc))


UNREADABLE_HINT = "memlint checks the rest of the project; make the file readable (or exclude it) to check it"


def lint_path(path: str, codes: Sequence[str], project: ProjectFacts | None = None) -> LintResult:
    """Lint one file on disk; every failure becomes a one-line error, never a traceback. `project`:
    what the project's other files say about the functions and classes this file calls (a project's
    second phase: the file's summary is then computed even where no rule needs to read it)."""
    return _lint_read(path, codes, read_or_error(path), project)


def lint_bytes(path: str, raw: bytes, codes: Sequence[str]) -> LintResult:
    """Lint bytes read elsewhere (standard input) as the content of `path`."""
    try:
        read: tuple[SourceFile | None, FileError | None] = source_from_bytes(path, raw), None
    except DecodeError as exc:
        read = None, FileError(path, str(exc))
    return _lint_read(path, codes, read)


def _lint_read(
    path: str, codes: Sequence[str], read: tuple[SourceFile | None, FileError | None], project: ProjectFacts | None = None
) -> LintResult:
    result = LintResult(path)
    source, error = read
    if source is None:
        if UNREADABLE[0] in codes:
            result.findings.append(_file_finding(path, UNREADABLE, error.message, 1, 1, UNREADABLE_HINT))
        else:
            result.errors.append(error)
        return result
    result.cache_key = content_key(source.raw, list(codes))
    _lint_guarded(result, source.text, codes, project=project)
    return result


class StatementCache(Protocol):
    """The language server's findings of unchanged statements (server/statements.py)."""

    def findings(
        self, model: SemanticModel, text: str, path: str, rules: list[Rule], guard: Guard
    ) -> tuple[list[Finding], list[FileError]]: ...


class Parser(Protocol):
    """Parses texts one after the other, maybe reusing what it parsed before (server/incremental.py)."""

    statement_lines: dict[int, int] | None  # id(top-level statement) -> first line, for the last module
    # The language server's: findings of unchanged statements kept across lints (server/statements.py),
    # and the parts of the project summary to compute (None: all; analysis/project.py's OWN_PARTS).
    statements: "StatementCache | None"
    summary_parts: Collection[str] | None

    def parse(self, text: str) -> cst.Module: ...

    def tree(self, module: cst.Module) -> Tree: ...  # the analysis walk of the module `parse` returned


def lint_text(
    path: str,
    text: str,
    settings: "Settings",
    codes: Sequence[str] | None = None,
    parser: Parser | None = None,
    project: ProjectFacts | None = None,
) -> LintResult:
    """Lint `text` as the content of `path` (an editor's unsaved buffer), as `lint_path` lints the file:
    with the rules `settings` enables for that path (or `codes`), never raising. A `parser` that
    keeps the previous module of the same document re-parses only what changed."""
    result = LintResult(path)
    _lint_guarded(result, text, settings.codes_for(path) if codes is None else codes, parser, project)
    return result


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause the cycle collector while one file is analysed. A file's tree and indexes are
    hundreds of thousands of objects freed by reference counting; the collections their
    allocation triggers rescan the growing heap, so a file's CPU grew faster than its size
    (5k -> 50k synthetic lines: 0.24 -> 0.34 s per 1,000 lines; paused: 0.18 -> 0.19)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if _kept_trees.fresh:  # the file's light tree is kept for the run's second phase
            _kept_trees.fresh = False
            gc.freeze()
        if was_enabled:
            gc.enable()


# LibCST generates code recursively, some five Python frames per level of nesting: a 500-term sum
# (which CPython compiles) needs more than the default limit of 1,000. Python frames live on the heap.
RECURSION_LIMIT = 20_000
# Analyse a light tree first (`_analyse_light`); MEMLINT_NO_LIGHT=1 parses every file with LibCST (to compare).
LIGHT_TREES = os.environ.get("MEMLINT_NO_LIGHT", "") in ("", "0")
# A file larger than this is only checked for syntax: LibCST holds about 1.3 GB per MB of source.
MAX_ANALYSED_BYTES = 3_000_000
DEEP_HINT = "memlint checks the rest of the project; split the expression to check this file"


def _lint_guarded(
    result: LintResult, text: str, codes: Sequence[str], parser: Parser | None = None, project: ProjectFacts | None = None
) -> None:
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, RECURSION_LIMIT))
    try:
        with _collector_paused():
            _lint_or_error(result, text, codes, parser, project)
    finally:
        sys.setrecursionlimit(limit)


def _lint_or_error(
    result: LintResult, text: str, codes: Sequence[str], parser: Parser | None, project: ProjectFacts | None
) -> None:
    try:
        result.findings, result.errors, result.summary = _lint_text(text, result.path, codes, parser, project)
    except RecursionError:
        result.findings, result.errors, result.summary = _too_deep(result.path, codes), [], {}
    except Exception as exc:  # noqa: BLE001 - the last line of defence: one line, not a traceback
        result.errors = [FileError(result.path, f"internal error: {describe(exc)}", internal=True)]


def _too_deep(path: str, codes: Sequence[str]) -> list[Finding]:
    """A file nested deeper than LibCST can follow: one finding, like a file that cannot be read."""
    if UNREADABLE[0] not in codes:
        return []
    return [_file_finding(path, UNREADABLE, "nested too deeply for memlint's parser", 1, 1, DEEP_HINT)]


def lint_source(
    text: str, path: str, codes: Sequence[str], project: ProjectFacts | None = None
) -> tuple[list[Finding], list[FileError]]:
    """Lint source text with the rules named by `codes` (one file on its own, or with `project`: the
    facts of the project's definitions it calls)."""
    findings, errors, _ = _lint_text(text, path, codes, None, project)
    return findings, errors


def _lint_text(
    text: str, path: str, codes: Sequence[str], parser: Parser | None = None, project: ProjectFacts | None = None
) -> tuple[list[Finding], list[FileError], dict]:
    """Findings, errors and the file's summary for the project index, with the file's own
    `# memlint: noqa[: CODES]` applied and, where selected, its unused suppressions (ML100)."""
    exempt = file_exemptions(text)
    if exempt:
        codes = [c for c in codes if not _exempt(c, exempt)]
    answers: dict = project.answers if project is not None else {}  # of both analyses (light, LibCST)
    if UNUSED_NOQA[0] not in codes or "#" not in text:
        findings, errors, summary = _lint_rules(text, path, codes, parser, project, answers)
    else:
        with recording() as used:
            findings, errors, summary = _lint_rules(text, path, codes, parser, project, answers)
        if not errors and not any(f.code in FILE_CODES for f in findings):  # the rules ran in full
            findings = sorted(findings + unused_noqa(text, path, codes, used), key=Finding.sort_key)
    if exempt and summary:  # the project's findings in this file too (workers.py)
        summary = {**summary, "file_noqa": sorted(CODE_NAMES.keys() - set(codes))}
    if summary and parser is None:  # a project's next round skips the file where no answer would change
        summary[ANSWERS] = ProjectFacts.answer_list(answers, summary.get("imports"))
    return findings, errors, summary


CODE_NAMES = {code: name for code, name, *_ in RULES} | {UNUSED_NOQA[0]: UNUSED_NOQA[1]}


def _exempt(code: str, exempt: set[str]) -> bool:
    """Does a file-level `# memlint: noqa` turn `code` off? A bare one turns off every rule and
    ML100 but, as in ruff, not the report of a file that does not parse or cannot be read."""
    if EVERY_RULE in exempt:
        return code not in FILE_CODES
    return code in exempt or CODE_NAMES.get(code, "").upper() in exempt


def _lint_rules(
    text: str,
    path: str,
    codes: Sequence[str],
    parser: Parser | None = None,
    project: ProjectFacts | None = None,
    answers: dict | None = None,
) -> tuple[list[Finding], list[FileError], dict]:
    if skips_file(text):
        return [], [], {}
    if "\0" in text:  # Python refuses the whole file, LibCST would parse it: point at the byte
        row, column = _row_column(text, text.index("\0"))
        return _syntax_finding(path, "source code cannot contain null bytes", row, column, text, codes), [], {}
    rules = [BY_CODE[c] for c in codes if c in BY_CODE and BY_CODE[c].may_apply(text, imported(path))]
    # in a project's second phase, the file's summary is wanted whatever the screen says: other files
    # call its definitions
    # a package's `__init__.py` that imports names: other files import them from it (`from pkg import
    # ops`, `ops.f(...)`), and its summary's imports lead them to the definitions
    reexports = path.endswith("__init__.py") and "import" in text
    tree = None
    # a file no rule needs whose summary other files' findings still read: other files of the
    # project import from it (their analyses ask about its definitions), or it calls the project
    caller = project is None and imported(path)
    if project is None and not rules and not reexports and not caller and not any(needle in text for needle in SUMMARY_NEEDLES):
        tree = _python_tree(text) if _kept_trees.packages and parser is None else None
        caller = _calls_the_project(path, tree, _kept_trees.packages)
        if not caller:
            return (_syntax_check_only(text, path, codes) if tree is None else []), [], {}
    if len(text) > MAX_ANALYSED_BYTES:
        note = FileError(path, f"only checked for syntax: {len(text) / 1e6:.1f} MB is over memlint's 3 MB analysis limit", note=True)
        return _syntax_check_only(text, path, codes), [note], {}
    kept = _kept_trees.take(path, text) if project is not None and parser is None else None
    if tree is None and parser is None and kept is None:
        tree = _python_tree(text)
    if project is None and not reexports and not caller and not needs_tree(text, rules, SUMMARY_NEEDLES, tree):
        if not _calls_the_project(path, tree, _kept_trees.packages):  # needles in comments and docstrings only
            return [], [], {}
    summary = None
    if (tree is not None or kept is not None) and LIGHT_TREES:
        light = _analyse_light(tree, text, path, rules, project, kept, answers)
        if light is not None:
            summary, rules = light
            if not rules:
                return [], [], summary
    if tree is None and kept is not None:  # LibCST's tree after all: its positions start from `ast`'s
        tree = _python_tree(text)
    try:
        module = parser.parse(text) if parser is not None else parse_module(text)
    except cst.ParserSyntaxError as exc:
        # CPython, which runs the file, says what fails and where: LibCST's tokenizer gives no position,
        # and its parser's can be a line late (`def f(self, async=True):` in Python 3.7 and later)
        message, row, column = _python_syntax_error(text) or (exc.message, exc.raw_line, exc.raw_column + 1)
        return _syntax_finding(path, message, row, column, text, codes), [], {}
    except RecursionError:
        return _too_deep(path, codes), [], {}
    except MemoryError:
        return [], [FileError(path, "out of memory while parsing")], {}
    except Exception as exc:  # noqa: BLE001 - a parser bug must not end the run
        return [], [FileError(path, f"internal error while parsing: {describe(exc)}", internal=True)], {}
    model = SemanticModel(
        module,
        path,
        parser.tree(module) if parser is not None else None,
        parser.statement_lines if parser is not None else None,
        text,
        parsed=tree,
        project=project if project is not None else ProjectFacts(answers=answers, lookup=lookup_for(path)),
    )
    project_view.asking(path, lambda: imports(model))
    with Guard().active() as guard:
        return _analyse(model, text, path, rules, guard, parser, summary)


def _python_tree(text: str) -> ast.Module | None:
    """CPython's parse of `text`, for the screen and the light tree; None where it fails (the
    LibCST path then reports the file as it always has)."""
    try:
        return python_ast(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


class KeptTrees:
    """The light trees of the files a worker analysed in a project's first phase whose analysis
    asked about a name that another file of the project may define: the second phase analyses such
    a file again with that file's facts, in the process that read it (workers.py sends it back
    there), without parsing and translating it again (on the bench corpus, 43 of 501 files, a
    quarter of its source; the parse and the light tree are half of a file's analysis). Off but in
    a run of `lint_files`; at most `limit` bytes of source (a light tree takes some 60 times its
    source), the biggest files first, as the workers take them."""

    def __init__(self) -> None:
        self.limit = 0
        self.size = 0
        self.trees: dict[str, tuple[str, LightModule, Tree]] = {}
        self.packages: Collection[str] = ()
        # A tree was kept during the file's analysis: the file's objects are then frozen out of the
        # cycle collector's passes (`_collector_paused`) instead of scanned by its next one, which
        # would find the kept tree alive (on the bench corpus, 0.15 s of a run's 0.18 s of collections);
        # `keep` unfreezes them, so what the run froze is collected as usual after it.
        self.fresh = False

    def keep(self, limit: int, packages: Collection[str] = ()) -> None:
        """Keep trees from now on, at most `limit` bytes of source (0: none, and forget them).
        `packages`: the first parts of the names of the project's modules (`pkg` of `pkg.sub.ops`)."""
        if self.trees:
            gc.unfreeze()
        self.limit, self.size, self.trees, self.packages, self.fresh = limit, 0, {}, packages, False

    def offer(self, path: str, text: str, light: LightModule, tree: Tree, summary: dict) -> None:
        if self.limit and self.size + len(text) <= self.limit and _asks_the_project(path, summary, self.packages):
            self.trees[path] = (text, light, tree)
            self.size += len(text)
            self.fresh = True

    def take(self, path: str, text: str) -> tuple[LightModule, Tree] | None:
        """The kept tree of `path`, where its text is still `text` (a later round may ask again)."""
        found = self.trees.get(path)
        return (found[1], found[2]) if found is not None and found[0] == text else None


_kept_trees = KeptTrees()
keep_trees = _kept_trees.keep


def _calls_the_project(path: str, tree: ast.Module | None, packages: Collection[str]) -> bool:
    """Does a file that no rule needs to read import from the project, in a run of `lint_files`
    (`packages` known)? Its calls then answer other files' questions about their definitions (how
    they are called, with grad or not, handed what), whatever rules run where: its summary is made
    like every other file's, with no rule run. (On the bench corpus, 23 of the 44 files no rule reads.)"""
    if tree is None or not packages:
        return False
    for node in ast.walk(tree):
        if type(node) is ast.ImportFrom:
            if _of_the_project(path, node.level, node.module or "", packages):
                return True
        elif type(node) is ast.Import:
            if any(_of_the_project(path, 0, alias.name, packages) for alias in node.names):
                return True
    return False


def _of_the_project(path: str, level: int, target: str, packages: Collection[str]) -> bool:
    """Is the module that `path` imports as `target` (`level` dots before it) one of the project's: a
    relative import, a package or module of the project, or a module beside the file (a script's folder)?"""
    first = target.partition(".")[0]
    beside = os.path.join(os.path.dirname(path), first)
    return bool(level) or first in packages or os.path.exists(beside + ".py") or os.path.isdir(beside)


def _asks_the_project(path: str, summary: dict, packages: Collection[str]) -> bool:
    """Did the file's analysis ask about a name it imports from where the project may define it: a
    relative import, a package or module of the project, or a module beside it (a script's
    folder)? Or how other files call a function of its own, or override a method of its own (any
    file of the project may)? Its findings' questions count, and those of what it exports (asked
    when other files call it). (The project index answers only for files of the project: `torch` gets no facts.)"""
    imports = summary.get("imports") or {}
    for question in [*(summary.get("asked") or ()), *(summary.get("asked_for_exports") or ())]:
        if question.startswith((CALLERS, OVERRIDES, PROJECT)):
            return True
        entry = imports.get(question.removeprefix("base:").partition(".")[0])
        if entry is not None and _of_the_project(path, entry[0], entry[1], packages):
            return True
    return False


def _analyse_light(
    tree: ast.Module | None,
    text: str,
    path: str,
    rules: list[type[Rule]],
    project: ProjectFacts | None = None,
    kept: "tuple[LightModule, Tree] | None" = None,
    answers: dict | None = None,
) -> tuple[dict, list[type[Rule]]] | None:
    """The file's analysis on a light tree (analysis/syntax/light.py: LibCST's nodes built from
    `ast`, several times cheaper than LibCST's parser): its summary and the rules that report
    something, which alone run again on LibCST's tree, for findings, messages and fixes exactly as
    written (most files report nothing). None where the tree is not translated or any analysis
    fails: then LibCST's tree gets the whole analysis, and says what went wrong. `kept`: the light
    tree and its index from the file's first analysis in this process (`KeptTrees`)."""
    if kept is not None:
        light, walked = kept
    else:
        try:
            light = light_module(tree, text) if tree is not None else None
        except Exception:  # noqa: BLE001 - a translator bug costs this file LibCST's parse, nothing else
            return None
        if light is None:
            return None
        walked = None
    # (its answers: `_lint_text`; in a run of `lint_files`, the facts of the files analysed so far)
    facts = project if project is not None else ProjectFacts(answers=answers, lookup=lookup_for(path))
    model = SemanticModel(light.module, path, walked, None, text, light.spans, project=facts)
    project_view.asking(path, lambda: imports(model))  # (its look-ups read the names it imports)
    with Guard().active() as guard, as_written(text, light.spans):
        summary = {}
        try:
            reports, errors = dispatch_rules(model, path, rules, guard)
            asked, model.project.asked = model.project.asked, set()
            guard.current = "the project summary"
            summary = summarize(model)
            summary["asked"], summary["asked_for_exports"] = sorted(asked), sorted(model.project.asked)  # QUESTION_PARTS
        except Exception:  # noqa: BLE001 - the LibCST path runs it again and says what went wrong
            return None
        finally:
            guard.current = None
            walked = model.tree
            model.release()
    if errors:
        return None
    if project is None:
        _kept_trees.offer(path, text, light, walked, summary)
    reporting = {rule.code for rule, _ in reports}
    return summary, [rule for rule in rules if rule.code in reporting]


def _analyse(
    model: SemanticModel,
    text: str,
    path: str,
    rules: list[type[Rule]],
    guard: Guard,
    parser: Parser | None = None,
    summary: dict | None = None,
) -> tuple[list[Finding], list[FileError], dict]:
    """Findings, errors and the summary (`summary`: the light tree's, which is LibCST's)."""
    summary_error = None
    try:
        guard.current = "the project summary"
        parts = parser.summary_parts if parser is not None else None
        if summary is None:
            summary = summarize(model) if parts is None else summarize(model, parts)
    except BudgetExceeded as exc:
        summary_error, summary = FileError(path, f"{exc}; the project index misses this file", note=True), {}
    except Exception as exc:  # noqa: BLE001 - the index is an extra: lose it, not the findings
        guard.current = None
        summary_error = FileError(path, f"internal error summarising for the project index: {describe(exc)}", internal=True)
        summary = {}
    finally:
        guard.current = None
    if parser is not None and parser.statements is not None and not is_recording():
        # (ML100 needs every suppression consulted: the statements' kept findings would skip theirs)
        findings, errors = parser.statements.findings(model, text, path, rules, guard)
    else:
        findings, errors = _run_rules(model, text, path, rules, guard)
        if summary and "asked" not in summary:
            summary["asked"] = sorted(model.project.asked)
    model.release()
    return findings, errors + ([summary_error] if summary_error else []), summary


def _syntax_check_only(text: str, path: str, codes: Sequence[str]) -> list[Finding]:
    """No rule can fire here; still report a file that does not parse (cheaply)."""
    if SYNTAX_ERROR[0] not in codes:
        return []
    error = _python_syntax_error(text)
    return _syntax_finding(path, *error, text, codes) if error else []


def _python_syntax_error(text: str) -> tuple[str, int, int] | None:
    """CPython's syntax error for `text` (message, row, column), or None when it parses (or
    is too deep to tell)."""
    try:
        python_ast(text)
    except SyntaxError as exc:
        return exc.msg, exc.lineno or 1, exc.offset or 1
    except (ValueError, RecursionError, MemoryError):
        return None
    return None


def _row_column(text: str, offset: int) -> tuple[int, int]:
    """1-based row and column of a character offset, rows split as the parser splits them."""
    lines = re.split(r"\r\n|\r|\n", text[:offset])
    return len(lines), len(lines[-1]) + 1


def _syntax_finding(path: str, message: str, row: int, column: int, text: str, codes: Sequence[str]) -> list[Finding]:
    if SYNTAX_ERROR[0] not in codes:
        return []
    first = message.strip().splitlines()[0] if message.strip() else "invalid syntax"
    # LibCST says `error at 5:4:`; the finding's location says where (in a notebook, in its cell).
    first = re.sub(r"\berror at \d+:\d+: ", "", first)
    hint = "memlint checks the rest of the project; fix the syntax to check this file"
    return [_file_finding(path, SYNTAX_ERROR, f"SyntaxError: {first}", row, column, hint)]


def _file_finding(path: str, problem: tuple[str, str], message: str, row: int, column: int, hint: str) -> Finding:
    """A finding about the file as a whole: it does not parse, or cannot be read."""
    return Finding(
        code=problem[0],
        name=problem[1],
        message=message,
        severity=Severity.ERROR,
        filename=path,
        location=Position(row, column),
        end_location=Position(row, column),
        hint=hint,
    )


def _run_rules(
    model: SemanticModel,
    text: str,
    path: str,
    rule_types: Iterable[type[Rule]],
    guard: Guard,
) -> tuple[list[Finding], list[FileError]]:
    reports, errors = dispatch_rules(model, path, rule_types, guard)
    if not reports:
        return [], errors
    findings = [f for f in report_findings(model, text, path, reports, errors) if f is not None]
    findings.sort(key=Finding.sort_key)
    return findings, errors


def dispatch_rules(
    model: SemanticModel,
    path: str,
    rule_types: Iterable[type[Rule]],
    guard: Guard,
    statements: Sequence[cst.CSTNode] | None = None,
    origins: list[cst.CSTNode] | None = None,
) -> tuple[list[tuple[Rule, Report]], list[FileError]]:
    """Every rule's hooks over the module's nodes, or over those of the top-level `statements`
    only (the language server's lint of the statements an edit touched, server/statements.py):
    the reports in the order a whole-module pass makes them, restricted to those nodes. With
    `statements`, `origins` receives, per report, the statement whose node the hook was given."""
    reports: list[tuple[Rule, Report]] = []
    errors: list[FileError] = []
    def sink(rule: Rule, report: Report) -> None:
        if not never_runs(model, report.node):  # code switched off by a constant (`if 0 > 0:`)
            reports.append((rule, report))

    dispatch: dict[type, list] = {}
    rules = [rule_type(model, sink) for rule_type in rule_types]
    for rule in rules:
        for node_type, method in rule.hooks().items():
            dispatch.setdefault(node_type, []).append((rule, getattr(rule, method)))
    broken: set[str] = set()
    tree = model.tree
    polled = not guard.timed
    for node_type, handlers in dispatch.items():
        if statements is None:
            nodes: Iterable[tuple[cst.CSTNode | None, cst.CSTNode]] = zip(repeat(None), tree.by_type.get(node_type, ()))
        else:
            nodes = [(statement, node) for statement in statements for node in _nodes_in(model, statement, node_type)]
        for statement, node in nodes:
            for rule, handler in handlers:
                if broken and rule.code in broken:
                    continue
                try:
                    guard.current = rule.code  # inside the try: the budget's timer may raise from here on
                    if polled:
                        guard.poll()
                    handler(node)
                except BudgetExceeded as exc:
                    broken.add(rule.code)
                    errors.append(
                        FileError(
                            path,
                            f"{rule.code} [{rule.name}] stopped after {exc.budget:g} s of CPU on this file: "
                            "its findings here are missing",
                            note=True,
                        )
                    )
                except Exception as exc:  # noqa: BLE001 - report, lint the rest
                    guard.current = None
                    broken.add(rule.code)
                    errors.append(
                        FileError(path, f"internal error in rule {rule.code} [{rule.name}]: {describe(exc)}", internal=True)
                    )
                finally:
                    guard.current = None
            if origins is not None:
                origins.extend(repeat(statement, len(reports) - len(origins)))
    return reports, errors


def _nodes_in(model: SemanticModel, statement: cst.CSTNode, node_type: type) -> list[cst.CSTNode]:
    """The nodes of `node_type` in a top-level statement; for the module, the module itself only."""
    if statement is model.module:
        return [statement] if type(statement) is node_type else []
    return model.tree.in_top_level(statement, node_type)


def report_findings(
    model: SemanticModel,
    text: str,
    path: str,
    reports: list[tuple[Rule, Report]],
    errors: list[FileError],
) -> list[Finding | None]:
    """The finding of each report, in the reports' order; None where it is suppressed or repeats
    an earlier one."""
    module = model.module
    targets = [r.node for _, r in reports]
    parentheses = []
    for _, r in reports:
        if r.fix is not None:
            for old, _ in r.fix.replacements:
                if isinstance(old, cst.BaseExpression):
                    targets.append(old)
                    if old.lpar:  # a fix replaces the expression with its parentheses
                        parentheses.append(old)
            if r.fix.prepend:
                targets.extend(_header(module))
    # a fix renders the top-level statement it changes, not the whole module
    statements = (model.tree.parent_of, model.positions.first_lines())
    positions = model.positions.ranges(targets)
    for old in parentheses:
        for paren in (old.lpar[0], old.rpar[-1]):
            positions[paren] = model.positions.range_of(paren, within=old)
    lines = text.splitlines()
    line_starts: list[int] | None = None  # computed once per file, for the first fix that needs them
    findings: list[Finding | None] = []
    seen = set()
    for rule, report in reports:
        where = positions[report.node]
        start = Position(where.start.line, where.start.column + 1)
        end = Position(where.end.line, where.end.column + 1)
        key = (rule.code, start, end)
        if key in seen or is_suppressed(lines, start.row, end.row, rule.code, rule.name):
            findings.append(None)
            continue
        seen.add(key)
        fix = None
        if report.fix is not None:
            try:
                if line_starts is None:
                    line_starts = _line_starts(text)
                fix = _to_fix(module, text, line_starts, report.fix, positions, statements)
            except Exception as exc:  # noqa: BLE001 - a broken fix must not lose the finding
                errors.append(FileError(path, f"internal error building the {rule.code} fix: {describe(exc)}", internal=True))
        elif rule.fix_applicability is not None:  # no edit this time: say what to do
            fix = Fix(Applicability.DISPLAY_ONLY, report.hint[:1].upper() + report.hint[1:])
        findings.append(
            Finding(
                code=rule.code,
                name=rule.name,
                message=report.message,
                severity=report.severity,
                filename=path,
                location=start,
                end_location=end,
                hint=report.hint,
                fix=fix,
                extra=report.extra,
            )
        )
    return findings


def _to_fix(module: cst.Module, text: str, line_starts: list[int], spec: FixSpec, positions, statements=None) -> Fix:
    """The fix's text edits. `line_starts`: the offset of each line of `text`. `statements`: (parent_of,
    first line of each top-level statement), when known (an incremental parse), to render a changed
    statement on its own instead of the module."""
    edits = []
    for old, new in spec.replacements:
        if isinstance(old, cst.BaseExpression):
            # An expression renders the same wherever it sits: replace its range.
            # Its range leaves out its parentheses, which `new` renders: include them.
            start = positions[old.lpar[0]].start if old.lpar else positions[old].start
            end = positions[old.rpar[-1]].end if old.rpar else positions[old].end
            if start.line == end.line:
                edits.append(
                    Edit(module.code_for_node(new), Position(start.line, start.column + 1), Position(end.line, end.column + 1))
                )
                continue
            # Over several lines its continuation lines are indented by its block: render it in place.
            edits.append(_rendered_edit(module, text, line_starts, old, new, False, statements))
            continue
        # A statement's indentation comes from its parents: render it in place.
        edits.append(_rendered_edit(module, text, line_starts, old, new, True, statements))
    if spec.prepend:
        row = _import_row(module, positions)
        newline = module.default_newline
        # First: an insertion at the same place (a decorator on the first line) goes after the import.
        edits.insert(0, Edit(spec.prepend.replace("\n", newline), Position(row, 1), Position(row, 1)))
    edits.sort(key=lambda e: e.start)
    return Fix(spec.applicability, spec.message, tuple(edits))


def _rendered_edit(module, text, line_starts, old, new, whole_lines: bool, statements) -> Edit:
    """The edit from rendering `new` in place of `old`: within its top-level statement (which starts
    a line, so its lines are the file's, shifted) when `statements` says where that starts."""
    if statements is not None:
        parent_of, first_lines = statements
        top = old
        while (parent := parent_of(top)) is not None and parent is not module:
            top = parent
        replaced = new if top is old else top.deep_replace(old, new)
        if parent is module and id(top) in first_lines and isinstance(replaced, cst.CSTNode):
            before, after = module.code_for_node(top), module.code_for_node(replaced)
            edit = _diff_edit(before, after, _line_starts(before), whole_lines)
            shift = first_lines[id(top)] - 1
            return Edit(
                edit.content,
                Position(edit.start.row + shift, edit.start.column),
                Position(edit.end.row + shift, edit.end.column),
            )
    changed = module.deep_replace(old, new)
    assert isinstance(changed, cst.Module)
    return _diff_edit(text, changed.code, line_starts, whole_lines)


def _line_starts(text: str) -> list[int]:
    starts = [0]
    for match in re.finditer(r"\r\n|\r|\n", text):
        starts.append(match.end())
    return starts


def offset_to_position(offset: int, line_starts: list[int]) -> Position:
    from bisect import bisect_right

    row = bisect_right(line_starts, offset)
    return Position(row, offset - line_starts[row - 1] + 1)


def _diff_edit(old: str, new: str, line_starts: list[int], whole_lines: bool = True) -> Edit:
    """The single region where `new` differs from `old`, as an edit of `old` (in whole lines)."""
    from bisect import bisect_left, bisect_right

    limit = min(len(old), len(new))
    prefix = 0
    while prefix < limit and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and old[len(old) - 1 - suffix] == new[len(new) - 1 - suffix]:
        suffix += 1
    if not whole_lines:
        return Edit(
            new[prefix : len(new) - suffix],
            offset_to_position(prefix, line_starts),
            offset_to_position(len(old) - suffix, line_starts),
        )
    # Widen to whole lines of `old`: still common text, and an edit that reads as lines.
    prefix = line_starts[bisect_right(line_starts, prefix) - 1]
    end = len(old) - suffix
    new_end = len(new) - suffix
    if end > prefix or (new_end > prefix and new[new_end - 1] not in "\r\n"):
        following = bisect_left(line_starts, end)
        if following < len(line_starts) and line_starts[following] == end and new_end > 0 and new[new_end - 1] not in "\r\n":
            following += 1  # `old` is at a line start but `new` is not (a re-indented line): take that line
        end = line_starts[following] if following < len(line_starts) else len(old)
    suffix = len(old) - end
    return Edit(
        new[prefix : len(new) - suffix],
        offset_to_position(prefix, line_starts),
        offset_to_position(len(old) - suffix, line_starts),
    )


def _header(module: cst.Module) -> list[cst.CSTNode]:
    """The module docstring and `__future__` imports: a new import goes after them."""
    header = []
    for index, stmt in enumerate(module.body):
        small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and stmt.body else None
        is_docstring = index == 0 and isinstance(small, cst.Expr) and isinstance(small.value, cst.SimpleString)
        is_future = (
            isinstance(small, cst.ImportFrom) and isinstance(small.module, cst.Name) and small.module.value == "__future__"
        )
        if not (is_docstring or is_future):
            break
        header.append(stmt)
    return header


def _import_row(module: cst.Module, positions) -> int:
    header = _header(module)
    if header:
        return positions[header[-1]].end.line + 1
    # After the comments that open the file (shebang, coding cookie, licence), before the first statement.
    return len(module.header) + 1
