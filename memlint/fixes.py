"""Autofix (ruff's model): choose the fixes that rules attach to findings, apply
them, check the result, and write it back without touching anything else.

Per file:

1. lint; keep the findings whose fix is applicable (safe, plus unsafe with
   `unsafe=True`; display-only fixes have no edits and are never applied);
2. choose fixes in a fixed order (position, then code) and leave out any fix
   whose edits overlap one already chosen: it gets its turn in the next round;
3. apply the chosen edits to the decoded text (so line endings and the
   encoding are untouched outside the edits), then check the result: it must
   compile, and linting it again must not show a finding that was not there
   before (the fixed finding must be gone). If the round fails, its fixes are
   tried one at a time; a failing fix is dropped and reported, never written;
4. repeat on the new text until no fix applies (at most `MAX_ROUNDS` rounds);
5. encode with the file's encoding (PEP 263 cookie, BOM), check that the file
   on disk still holds the bytes that were read, and replace it atomically
   (temporary file in the same directory, then rename) with its permissions.

`apply_fixes` is the single, unchecked step 2+3 on a string, for callers that
want a finding's fix applied in memory (memlint verify).
"""

from __future__ import annotations

import bisect
import difflib
import os
import re
import stat
import tempfile
import warnings
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Iterable, Sequence

from memlint.models import Applicability, FileError, Finding, Fix, Position
from memlint.notebook import Notebook, NotebookError
from memlint.parsing import python_ast

if TYPE_CHECKING:
    from memlint.analysis.flow.project_facts import ProjectFacts

MAX_ROUNDS = 10
SYNTAX_CODE = "ML000"
_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # the line breaks LibCST (and so every Position) counts


# --------------------------------------------------------------------------- choosing and applying


def is_applicable(fix: Fix | None, unsafe: bool = False) -> bool:
    """Whether `--fix` (with `--unsafe-fixes` when `unsafe`) applies this fix."""
    if fix is None or not fix.edits:
        return False
    return fix.applicability is Applicability.SAFE or (unsafe and fix.applicability is Applicability.UNSAFE)


class InvalidEdit(ValueError):
    """An edit that does not fit the text (outside it, or overlapping its own fix's edits)."""


@dataclass(frozen=True)
class _Span:
    start: int  # character offsets into the text
    end: int
    content: str


class _Text:
    """Position <-> offset for one text."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0] + [m.end() for m in _LINE_BREAK.finditer(text)]

    def offset(self, position: Position) -> int:
        row, column = position.row, position.column
        if row == len(self.starts) + 1 and column == 1:
            return len(self.text)  # just past the last line (an insertion at the end)
        if not 1 <= row <= len(self.starts) or column < 1:
            raise InvalidEdit(f"position {row}:{column} is outside the file")
        start = self.starts[row - 1]
        line_end = self.starts[row] if row < len(self.starts) else len(self.text)
        offset = start + column - 1
        if offset > line_end:
            raise InvalidEdit(f"position {row}:{column} is past the end of its line")
        return offset

    def position(self, offset: int) -> Position:
        row = bisect.bisect_right(self.starts, offset)
        return Position(row, offset - self.starts[row - 1] + 1)

    def spans(self, fix: Fix) -> list[_Span]:
        spans = []
        for edit in fix.edits:
            start, end = self.offset(edit.start), self.offset(edit.end)
            if end < start:
                raise InvalidEdit(f"edit ends ({edit.end.row}:{edit.end.column}) before it starts")
            spans.append(_Span(start, end, edit.content))
        ordered = sorted(spans, key=lambda s: (s.start, s.end))
        for before, after in zip(ordered, ordered[1:]):
            if after.start < before.end:
                raise InvalidEdit("the fix's own edits overlap")
        return spans


def _conflict(a: _Span, b: _Span) -> bool:
    if a == b:
        return False  # the same edit in two fixes (an `import torch` both add): applied once
    if a.start < b.end and b.start < a.end:
        return True
    return a.start == a.end == b.start == b.end  # two insertions at one point: order would matter


def _fix_order(finding: Finding) -> tuple:
    first = min(e.start for e in finding.fix.edits)  # type: ignore[union-attr]
    last = max(e.end for e in finding.fix.edits)  # type: ignore[union-attr]
    return (first, last, finding.code, finding.fix.message, finding.message)  # type: ignore[union-attr]


def _select(
    index: _Text, candidates: Iterable[Finding]
) -> tuple[list[tuple[Finding, list[_Span]]], list[tuple[Finding, str]]]:
    """Non-overlapping fixes in a deterministic order; and the fixes whose edits are invalid."""
    chosen: list[tuple[Finding, list[_Span]]] = []
    taken: list[_Span] = []
    invalid: list[tuple[Finding, str]] = []
    for finding in sorted(candidates, key=_fix_order):
        try:
            spans = index.spans(finding.fix)  # type: ignore[arg-type]
        except InvalidEdit as exc:
            invalid.append((finding, str(exc)))
            continue
        if any(_conflict(span, other) for span in spans for other in taken):
            continue  # overlaps a fix chosen before it: next round
        chosen.append((finding, spans))
        taken.extend(spans)
    return chosen, invalid


def _apply(text: str, chosen: Sequence[tuple[Finding, list[_Span]]]) -> str:
    seen: set[_Span] = set()
    ordered: list[tuple[int, int, int, _Span]] = []
    for sequence, span in enumerate(span for _, spans in chosen for span in spans):
        if span in seen:
            continue
        seen.add(span)
        ordered.append((span.start, span.end, sequence, span))
    ordered.sort()
    pieces, cursor = [], 0
    for start, end, _, span in ordered:
        pieces.append(text[cursor:start])
        pieces.append(span.content)
        cursor = end
    pieces.append(text[cursor:])
    return "".join(pieces)


def apply_fixes(text: str, findings: Iterable[Finding], unsafe: bool = False) -> tuple[str, list[Finding]]:
    """Apply the applicable fixes of `findings` (found in `text`) to `text`, in memory.

    One round, no checks: fixes are taken in order of position then code, and a
    fix that overlaps one already taken (or whose edits do not fit the text) is
    left out. Returns the new text and the findings whose fix was applied. Pass
    a single finding to apply just its fix (`unsafe=True` to include unsafe ones).
    """
    index = _Text(text)
    chosen, _ = _select(index, (f for f in findings if is_applicable(f.fix, unsafe)))
    return _apply(text, chosen), [f for f, _ in chosen]


# --------------------------------------------------------------------------- checking, rounds


@dataclass
class RejectedFix:
    finding: Finding  # as found in the text the fix was tried on
    reason: str


@dataclass
class SourceFixResult:
    text: str  # the fixed text (the input when nothing was fixed)
    applied: list[Finding] = field(default_factory=list)  # each as found in the round that fixed it
    rejected: list[RejectedFix] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)  # what remains in `text`
    errors: list[FileError] = field(default_factory=list)
    rounds: int = 0
    converged: bool = True  # False: MAX_ROUNDS ran out with fixes still to apply
    summary: dict | None = None  # the project-index summary of `text` (None: unknown)

    @property
    def changed(self) -> bool:
        return bool(self.applied)


def _fix_key(finding: Finding) -> tuple:
    """A fix, recognisable after other fixes moved it: code, message and what it inserts."""
    fix = finding.fix
    return (finding.code, finding.message, fix.message if fix else "", tuple(e.content for e in fix.edits) if fix else ())


def _row_map(old: str, new: str) -> Callable[[int], int | None]:
    """Map a row of `old` to its row in `new` (None for a row the edit removed).

    Lines are compared without their indentation, so a block that a fix
    re-indents (wrapped in `with torch.no_grad():`) still maps line by line; a
    changed region of as many lines in both maps line by line as well.
    """
    a = [line.strip() for line in _LINE_BREAK.split(old)]
    b = [line.strip() for line in _LINE_BREAK.split(new)]
    prefix = 0
    while prefix < min(len(a), len(b)) and a[prefix] == b[prefix]:
        prefix += 1
    suffix = 0
    while suffix < min(len(a), len(b)) - prefix and a[len(a) - 1 - suffix] == b[len(b) - 1 - suffix]:
        suffix += 1
    mapping: dict[int, int] = {}
    middle_a, middle_b = a[prefix : len(a) - suffix], b[prefix : len(b) - suffix]
    matcher = difflib.SequenceMatcher(None, middle_a, middle_b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal" or (tag == "replace" and i2 - i1 == j2 - j1):
            for k in range(i2 - i1):
                mapping[prefix + i1 + k + 1] = prefix + j1 + k + 1
    shift = len(b) - len(a)

    def row(old_row: int) -> int | None:
        if old_row <= prefix:
            return old_row
        if old_row > len(a) - suffix:
            return old_row + shift
        return mapping.get(old_row)

    return row


@dataclass
class _Outcome:
    ok: bool
    text: str = ""
    findings: list[Finding] = field(default_factory=list)
    errors: list[FileError] = field(default_factory=list)
    reason: str = ""
    follow_ups: list[Finding] = field(default_factory=list)  # fixes applied with it, as one edit


class _Checker:
    """Lints candidate texts of one file and judges them against the text they came from."""

    def __init__(
        self, path: str, codes: Sequence[str], original: str, unsafe: bool = False, project: ProjectFacts | None = None
    ) -> None:
        self.path = path
        self.project = project  # what the project's other files say of what the file calls
        self.unsafe = unsafe
        self.codes = list(codes)
        self.lint_codes = self.codes if SYNTAX_CODE in self.codes else [*self.codes, SYNTAX_CODE]
        self.original = original
        self._original_compiles: bool | None = None
        self.summaries: dict[str, dict] = {}  # text -> its project-index summary

    def lint(self, text: str) -> tuple[list[Finding], list[FileError]]:
        from memlint import engine

        if hasattr(engine, "_lint_text"):  # with the file's summary for the project index
            findings, errors, self.summaries[text] = engine._lint_text(text, self.path, self.lint_codes, None, self.project)
        else:
            findings, errors = engine.lint_source(text, self.path, self.lint_codes, self.project)
        if SYNTAX_CODE not in self.codes:
            findings = [f for f in findings if f.code != SYNTAX_CODE]
        return findings, errors

    def _compile_error(self, text: str) -> str | None:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # SyntaxWarning for odd escapes: not ours to report
                compile(text, self.path, "exec", dont_inherit=True)
        except SyntaxError as exc:
            return f"{exc.msg} (line {exc.lineno})"
        except (ValueError, RecursionError, MemoryError) as exc:
            return str(exc) or type(exc).__name__
        return None

    def original_compiles(self) -> bool:
        if self._original_compiles is None:
            self._original_compiles = self._compile_error(self.original) is None
        return self._original_compiles

    def judge(
        self,
        before: str,
        before_findings: list[Finding],
        before_errors: list[FileError],
        chosen: Sequence[tuple[Finding, list[_Span]]],
    ) -> _Outcome:
        after = _apply(before, chosen)
        if after == before:
            return _Outcome(False, reason="the fix changes nothing")
        outcome = self._judge_text(before, before_findings, before_errors, chosen, after)
        if outcome.ok or not outcome.follow_ups:
            return outcome
        # The fix makes findings appear that have fixes of their own (`no_grad` around an
        # evaluation loop turns kept outputs into ML005): offer the combined edit, never half of it.
        index = _Text(after)
        more, invalid = _select(index, outcome.follow_ups)
        if invalid or len(more) != len(outcome.follow_ups):
            return _Outcome(False, reason=outcome.reason)
        combined = self._judge_text(before, before_findings, before_errors, chosen, _apply(after, more))
        if not combined.ok:
            return _Outcome(False, reason=outcome.reason)
        combined.follow_ups = [f for f, _ in more]
        return combined

    def _judge_text(
        self,
        before: str,
        before_findings: list[Finding],
        before_errors: list[FileError],
        chosen: Sequence[tuple[Finding, list[_Span]]],
        after: str,
    ) -> _Outcome:
        problem = self._compile_error(after)
        if problem is not None:
            if self.original_compiles():
                return _Outcome(False, reason=f"the result would not compile: {problem}")
            try:  # the file never compiled (`await` at top level, ...): it must still parse
                python_ast(after)
            except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
                return _Outcome(False, reason=f"the result would not parse: {exc}")
        findings, errors = self.lint(after)
        syntax = [f for f in findings if f.code == SYNTAX_CODE]
        if syntax and not any(f.code == SYNTAX_CODE for f in before_findings):
            return _Outcome(False, reason=f"the result would not parse: {syntax[0].message}")
        old_errors = {e.message for e in before_errors}
        new_errors = [e for e in errors if e.message not in old_errors]
        if new_errors:
            return _Outcome(False, reason=f"memlint fails on the result: {new_errors[0].message}")
        introduced = _introduced(before, after, before_findings, [f for f, _ in chosen], findings)
        if introduced is not None:
            fixable = [f for f in _new_findings(before, after, before_findings, [f for f, _ in chosen], findings)
                       if is_applicable(f.fix, self.unsafe)]
            return _Outcome(False, reason=introduced, follow_ups=fixable)
        return _Outcome(True, after, findings, errors)


def _introduced(
    before: str, after: str, before_findings: list[Finding], fixed: list[Finding], after_findings: list[Finding]
) -> str | None:
    """Why the fixed text is worse than `before`, or None.

    Findings are matched on (row, code, message), rows mapped through the edit.
    A finding left over is acceptable only where a finding of `before` has
    disappeared on the same row with another message or code (a message that
    names the fixed expression, or ML001 becoming ML005 once the graph is
    gone); the fixed finding's own code on its own row means the fix did not
    resolve it.
    """
    row = _row_map(before, after)
    fixed_ids = {id(f) for f in fixed}
    expected = Counter(
        (row(f.location.row), f.code, f.message) for f in before_findings if id(f) not in fixed_ids
    )
    actual = Counter((f.location.row, f.code, f.message) for f in after_findings)
    extra = actual - expected
    if not extra:
        return None
    vanished = expected - actual
    vanished_rows = {r for r, _, _ in vanished} | {row(f.location.row) for f in fixed}
    fixed_on = {(row(f.location.row), f.code) for f in fixed}
    revealed = {code for f in fixed for code in _REVEALS.get(f.code, ())}
    for (r, code, message), _ in sorted(extra.items(), key=lambda item: (item[0][0], item[0][1])):
        if (r, code) in fixed_on:
            return f"the result still has {code} on that line: {message}"
        if r not in vanished_rows and code not in revealed:
            return f"the result would have a new finding, {code} at line {r}: {message}"
    return None


# Findings that a fix of a rule can reveal without causing: once a kept value no longer carries its
# graph (ML001's detach), a loop that never differentiates reads as evaluation (ML003); the loop ran
# with grad before the fix as after it, so the waste is the code's, not the fix's.
_REVEALS: dict[str, frozenset[str]] = {"ML001": frozenset({"ML003"})}


def _new_findings(
    before: str, after: str, before_findings: list[Finding], fixed: list[Finding], after_findings: list[Finding]
) -> list[Finding]:
    """The findings of `after` that `before` did not have (rows mapped through the edit)."""
    row = _row_map(before, after)
    fixed_ids = {id(f) for f in fixed}
    expected = Counter((row(f.location.row), f.code, f.message) for f in before_findings if id(f) not in fixed_ids)
    new = []
    for f in after_findings:
        key = (f.location.row, f.code, f.message)
        if expected[key]:
            expected[key] -= 1
        else:
            new.append(f)
    return new


def _reject(result: SourceFixResult, finding: Finding, reason: str) -> None:
    """Record a refused fix once: one tried again after other fixes moved it replaces its first report."""
    for index, earlier in enumerate(result.rejected):
        if (earlier.finding.code, earlier.finding.message, earlier.reason) == (finding.code, finding.message, reason):
            result.rejected[index] = RejectedFix(finding, reason)
            return
    result.rejected.append(RejectedFix(finding, reason))


def fix_source(
    text: str,
    path: str,
    codes: Sequence[str],
    unsafe: bool = False,
    max_rounds: int = MAX_ROUNDS,
    fixable: Callable[[Finding], bool] | None = None,
    project: ProjectFacts | None = None,
) -> SourceFixResult:
    """Fix `text` (the content of `path`) with the rules in `codes`; nothing is written.

    `fixable`, when given, limits the fixes to the findings it accepts (on the
    text as it is in each round).
    """
    checker = _Checker(path, codes, text, unsafe, project)
    findings, errors = checker.lint(text)
    result = SourceFixResult(text)
    if any(f.code == SYNTAX_CODE for f in findings):
        result.findings, result.errors, result.summary = findings, errors, checker.summaries.get(text)
        return result
    refused: set[tuple] = set()
    converged = False
    for _ in range(max_rounds):
        candidates = [
            f
            for f in findings
            if is_applicable(f.fix, unsafe) and _fix_key(f) not in refused and (fixable is None or fixable(f))
        ]
        if not candidates:
            converged = True
            break
        result.rounds += 1
        index = _Text(text)
        chosen, invalid = _select(index, candidates)
        for finding, reason in invalid:
            refused.add(_fix_key(finding))
            _reject(result, finding, f"its edits do not fit the file: {reason}")
        if not chosen:
            continue
        outcome = checker.judge(text, findings, errors, chosen)
        if outcome.ok:
            accepted = list(chosen)
            follow_ups = outcome.follow_ups
        else:
            # Find the culprit: add the round's fixes one at a time.
            accepted = []
            follow_ups = []
            if len(chosen) == 1:
                refused.add(_fix_key(chosen[0][0]))
                _reject(result, chosen[0][0], outcome.reason)
            else:
                outcome = _Outcome(False)
                for item in chosen:
                    trial = checker.judge(text, findings, errors, [*accepted, item])
                    if trial.ok:
                        accepted.append(item)
                        outcome = trial
                        follow_ups = trial.follow_ups
                    else:
                        refused.add(_fix_key(item[0]))
                        _reject(result, item[0], trial.reason)
        if accepted:
            result.applied.extend(f for f, _ in accepted)
            result.applied.extend(follow_ups)
            text, findings, errors = outcome.text, outcome.findings, outcome.errors
    else:
        converged = not any(
            is_applicable(f.fix, unsafe) and _fix_key(f) not in refused and (fixable is None or fixable(f))
            for f in findings
        )
    result.text, result.findings, result.errors, result.converged = text, findings, errors, converged
    result.summary = checker.summaries.get(text)
    return result


# --------------------------------------------------------------------------- files


class FileChangedError(OSError):
    """The file on disk is no longer what was read: it is not overwritten."""


@dataclass
class FileFixResult:
    path: str
    findings: list[Finding] = field(default_factory=list)  # what remains (in the fixed text)
    errors: list[FileError] = field(default_factory=list)
    applied: list[Finding] = field(default_factory=list)
    rejected: list[RejectedFix] = field(default_factory=list)
    original: str | None = None  # decoded texts, kept only when the fix changed something
    fixed: str | None = None
    notebook: Notebook | None = None  # for a notebook: the cells behind `original` (for --diff)
    written: bool = False
    cache_key: str | None = None  # content key of the file as it now is on disk (None: unknown)
    converged: bool = True
    summary: dict | None = None  # project-index summary of the fixed text

    @property
    def changed(self) -> bool:
        return self.original is not None and self.original != self.fixed


def encode(text: str, encoding: str) -> bytes:
    """Text back to bytes in the file's encoding; `utf-8-sig` restores the BOM."""
    return text.encode(encoding)


def write_atomic(path: str, data: bytes, expected: bytes) -> None:
    """Replace the content of `path` with `data` unless it no longer holds `expected`.

    Only a file this user may open for writing is written (a rename in a writable directory
    would otherwise replace a file that is read-only to them). The new content goes to a
    temporary file in the same directory, with the original's mode and owner, renamed over
    the original (a symbolic link is followed: its target is replaced); where that copy
    cannot get the owner (a file of another user that this one may write) or the directory
    is not writable, the file is rewritten in place, which keeps its owner, mode and inode.
    Raises FileChangedError or OSError (PermissionError for a file this user cannot write).
    """
    target = os.path.realpath(path)
    info = os.stat(target)
    os.close(os.open(target, os.O_WRONLY))  # the check before: opening truncates nothing
    temporary = _replacement(target, data, info)
    if temporary is None:
        with open(target, "r+b") as handle:
            if handle.read() != expected:
                raise FileChangedError(f"{path} changed on disk while it was being fixed")
            handle.seek(0)
            handle.write(data)
            handle.truncate()
            handle.flush()
            os.fsync(handle.fileno())
        return
    try:
        with open(target, "rb") as handle:
            if handle.read() != expected:
                raise FileChangedError(f"{path} changed on disk while it was being fixed")
        os.replace(temporary, target)
    except BaseException:
        _unlink(temporary)
        raise


def _replacement(target: str, data: bytes, info: os.stat_result) -> str | None:
    """A temporary file next to `target` holding `data`, with its mode and owner; None where
    the directory takes no new file or the owner cannot be kept."""
    directory, name = os.path.split(target)
    try:
        fd, temporary = tempfile.mkstemp(prefix=f".{name}.", suffix=".memlint-tmp", dir=directory or ".")
    except PermissionError:
        return None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, stat.S_IMODE(info.st_mode))
        if hasattr(os, "chown") and (info.st_uid, info.st_gid) != (os.geteuid(), os.getegid()):
            try:
                os.chown(temporary, info.st_uid, info.st_gid)
            except OSError:
                _unlink(temporary)
                return None
    except BaseException:
        _unlink(temporary)
        raise
    return temporary


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def fix_path(
    path: str,
    codes: Sequence[str],
    unsafe: bool = False,
    write: bool = True,
    fixable: Callable[[Finding], bool] | None = None,
    project: ProjectFacts | None = None,
) -> FileFixResult:
    """Fix one file (write=False: compute the fixed text only, for `--diff`), with the facts of the
    project's definitions it calls (`project`), as the lint that reported its findings had them."""
    from memlint.cache import content_key
    from memlint.engine import read_or_error

    result = FileFixResult(path)
    source, error = read_or_error(path)
    if source is None:
        result.errors.append(error)
        return result
    result.cache_key = content_key(source.raw, list(codes))
    try:
        fixed = fix_source(source.text, path, codes, unsafe, fixable=fixable, project=project)
    except RecursionError:
        result.errors.append(FileError(path, "too deeply nested to analyse"))
        return result
    except Exception as exc:  # noqa: BLE001 - one line, not a traceback
        result.errors.append(FileError(path, f"internal error while fixing: {type(exc).__name__}: {exc}", internal=True))
        return result
    result.findings, result.errors = fixed.findings, list(fixed.errors)
    result.applied, result.rejected, result.converged = fixed.applied, fixed.rejected, fixed.converged
    result.summary = fixed.summary
    if not fixed.changed or fixed.text == source.text:
        return result
    result.original, result.fixed, result.notebook = source.text, fixed.text, source.notebook
    try:
        if source.notebook is not None:  # the fixed cells spliced into the notebook's JSON
            data = source.notebook.with_source(fixed.text)
        else:
            if encode(source.text, source.encoding) != source.raw:
                raise ValueError(f"its {source.encoding} encoding does not round-trip")
            data = encode(fixed.text, source.encoding)
    except (UnicodeError, ValueError, LookupError) as exc:
        return _not_written(result, source.text, codes, f"fixes not written: {exc}", project)
    if not write:
        result.cache_key = None  # the findings describe the fixed text, which is not on disk
        return result
    try:
        write_atomic(path, data, source.raw)
    except FileChangedError:
        return _not_written(result, source.text, codes, "changed on disk while it was being fixed; not overwritten", project)
    except OSError as exc:
        return _not_written(result, source.text, codes, f"cannot write the fixes: {exc.strerror or exc}", project)
    result.written = True
    result.cache_key = content_key(data, list(codes))
    return result


def _not_written(
    result: FileFixResult, text: str, codes: Sequence[str], reason: str, project: ProjectFacts | None
) -> FileFixResult:
    """The fixes did not reach the file: nothing counts as fixed, and what is reported is
    what the file still holds (the findings of its text as read)."""
    from memlint.engine import lint_source

    result.findings, errors = lint_source(text, result.path, list(codes), project)
    result.errors = [*errors, FileError(result.path, reason)]
    result.applied, result.original, result.fixed, result.summary, result.cache_key = [], None, None, None, None
    return result


# --------------------------------------------------------------------------- many files


@dataclass
class FixRun:
    findings: list[Finding] = field(default_factory=list)  # what remains
    errors: list[FileError] = field(default_factory=list)
    files: int = 0
    applied: list[Finding] = field(default_factory=list)
    rejected: list[RejectedFix] = field(default_factory=list)
    changed: list[FileFixResult] = field(default_factory=list)  # files the fixes change, in path order
    unconverged: list[str] = field(default_factory=list)


_JOB_FILTER: Callable[[Finding], bool] | None = None  # set in each worker (see fix_files)


def _init_worker(fixable: Callable[[Finding], bool] | None) -> None:
    global _JOB_FILTER
    _JOB_FILTER = fixable


def _fix_job(job: tuple[str, list[str], bool, bool, dict]) -> FileFixResult:
    from memlint.analysis.flow.project_facts import ProjectFacts

    path, codes, unsafe, write, facts = job
    return fix_path(path, codes, unsafe, write, _JOB_FILTER, ProjectFacts(facts) if facts else None)


class _Reported:
    """Fix only what `memlint` reports: the project index may drop a finding
    (ML003 for a function only called without grad elsewhere); and, with
    --diff-base, only findings on changed lines."""

    def __init__(self, index, fixable: Callable[[Finding], bool] | None, preview: bool = True) -> None:
        self.index = index
        self.fixable = fixable
        self.preview = preview

    def __call__(self, finding: Finding) -> bool:
        if self.fixable is not None and not self.fixable(finding):
            return False
        return self.index is None or bool(self.index.adjust([finding], self.preview))


def fix_files(
    paths: list[str],
    settings,
    cache=None,
    unsafe: bool = False,
    write: bool = True,
    workers: int | None = None,
    fixable: Callable[[Finding], bool] | None = None,
) -> FixRun:
    """`memlint --fix` over files.

    First a lint of every file, as `memlint` runs it (cache and project index
    included); then the files with a fix to apply are fixed, in parallel; the
    findings that remain are those of the fixed files, adjusted by the project
    index again, and those of the others.
    """
    from memlint.project_index import ProjectIndex
    from memlint.workers import _size, default_jobs, lint_files, parallel_map

    linted = lint_files(paths, settings, cache, workers)
    index = getattr(linted, "index", None)
    wanted = _Reported(index, fixable, settings.preview)
    targets = sorted({f.filename for f in linted.findings if is_applicable(f.fix, unsafe) and wanted(f)})
    todo = [(path, settings.codes_for(path), unsafe, write, index.facts_for(path) if index else {}) for path in targets]

    todo.sort(key=lambda job: -_size(job[0]))
    outcomes = list(parallel_map(_fix_job, todo, workers or default_jobs(), _init_worker, (wanted,)))
    fixed = {outcome.path: outcome for outcome in outcomes}

    if cache is not None:
        for outcome in outcomes:
            if outcome.cache_key is not None and (outcome.written or not outcome.changed):
                cache.put(outcome.path, outcome.cache_key, outcome.findings, outcome.errors, outcome.summary)
        cache.save()

    run = FixRun(files=len(paths))
    if index is not None and any(o.written for o in outcomes):
        summaries = dict(index.summaries)
        for outcome in outcomes:
            if outcome.written and outcome.summary is not None:
                summaries[outcome.path] = outcome.summary
        index = ProjectIndex({p: s for p, s in summaries.items() if s}, settings.root)
    for finding in linted.findings:
        if finding.filename not in fixed:
            run.findings.append(finding)
    for error in linted.errors:
        if error.filename not in fixed:
            run.errors.append(error)
    for path in paths:
        outcome = fixed.get(path)
        if outcome is None:
            continue
        run.findings.extend(index.adjust(outcome.findings, settings.preview) if index is not None else outcome.findings)
        run.errors.extend(outcome.errors)
        run.applied.extend(outcome.applied)
        run.rejected.extend(outcome.rejected)
        if outcome.changed:
            run.changed.append(outcome)
        if not outcome.converged:
            run.unconverged.append(path)
    run.findings.sort(key=Finding.sort_key)
    return run


# --------------------------------------------------------------------------- reporting


def unified_diff(path: str, old: str, new: str) -> str:
    """`--diff` output for one file (ruff's format: `--- path` / `+++ path`)."""
    a = old.splitlines(keepends=True)
    b = new.splitlines(keepends=True)
    lines = []
    for line in difflib.unified_diff(a, b, fromfile=path, tofile=path):
        lines.append(line)
        if not line.endswith(("\n", "\r")):
            lines.append("\n\\ No newline at end of file\n")
    return "".join(lines)


def file_diff(result: FileFixResult) -> str:
    """`--diff` for one fixed file; for a notebook, one diff per changed cell (`--- train.ipynb:cell 4`)."""
    if result.notebook is None:
        return unified_diff(result.path, result.original or "", result.fixed or "")
    try:
        changes = result.notebook.code.changes(result.fixed or "")
    except NotebookError:
        return ""  # reported already: the fixes could not be written back
    return "".join(unified_diff(f"{result.path}:cell {cell}", old, new) for cell, old, new in changes)


def fix_summary(applied: Sequence[Finding]) -> list[str]:
    """`--show-fixes`: per file, how many findings of each rule were fixed."""
    if not applied:
        return []
    count = len(applied)
    lines = [f"Fixed {count} finding{'s' if count != 1 else ''}:"]
    by_file: dict[str, Counter] = {}
    for finding in applied:
        by_file.setdefault(finding.filename, Counter())[(finding.code, finding.name)] += 1
    for filename in sorted(by_file):
        lines.append(f"- {filename}:")
        for (code, name), n in sorted(by_file[filename].items()):
            lines.append(f"    {n} × {code} ({name})")
    return lines


def describe_rejection(rejected: RejectedFix, sources=None) -> str:
    """`path:row:col: CODE fix not applied: why` (in a notebook `path:cell N:row:col`)."""
    from memlint.formats.common import Sources
    from memlint.formats.text import where

    f = rejected.finding
    location = where(sources or Sources(), f.filename, f.location)
    return f"{f.filename}:{location}: {f.code} fix not applied: {rejected.reason}"


def report_rejected(run: FixRun) -> None:
    """Warn, on stderr, about every fix that was dropped, and files that did not settle."""
    import click

    from memlint.formats.common import Sources

    sources = Sources()
    for rejected in run.rejected:
        click.echo(f"memlint: warning: {describe_rejection(rejected, sources)}", err=True)
    for path in run.unconverged:
        click.echo(f"memlint: warning: {path}: fixes still apply after {MAX_ROUNDS} rounds; run again", err=True)


def report_fixes(
    run: FixRun, diff: bool, show_fixes: bool, quiet: bool, text_format: bool = True, unsafe: bool = False
) -> int:
    """Output of `--diff` and `--fix-only` (the findings that remain are not reported); the exit code.
    Without `unsafe`, says how many unsafe fixes `--unsafe-fixes` would add, as ruff does."""
    import sys

    import click

    from memlint.formats import print_errors

    print_errors(run.errors)
    report_rejected(run)
    count = len(run.applied)
    noun = "finding" if count == 1 else "findings"
    hidden = 0 if unsafe else hidden_fixes(run.findings)
    fixes = f"{hidden} {'more ' if count else ''}fix{'es' if hidden != 1 else ''}"
    more = f" ({fixes} available with `--unsafe-fixes`)" if hidden else ""
    if diff:
        for result in run.changed:
            sys.stdout.write(file_diff(result))
        sys.stdout.flush()
        if not quiet:
            click.echo(f"Would fix {count} {noun}{more}." if count else f"No findings would be fixed{more}.", err=True)
        if run.errors:
            return 2
        return 1 if run.changed else 0
    if show_fixes:
        for line in fix_summary(run.applied):
            click.echo(line, err=not text_format)
    elif not quiet:
        click.echo(f"Fixed {count} {noun}{more}." if count else f"No findings fixed{more}.", err=not text_format)
    return 2 if run.errors else 0


def hidden_fixes(findings: Iterable[Finding]) -> int:
    """The findings left with an unsafe fix that `--unsafe-fixes` would apply (a run without it)."""
    return sum(1 for f in findings if f.fix and f.fix.applicability is Applicability.UNSAFE and f.fix.edits)
