"""The rule registry: every rule class, by code and by name.

The classes, and LibCST which they import, are loaded on first use of
`ALL_RULES`, `BY_CODE`, `BY_NAME` or `FILE_PROBLEMS`: a run whose files all
hit the cache needs only the codes and names, which catalog.py holds.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from memlint.rules.catalog import FILE_CODES, RULES, SYNTAX_ERROR, UNREADABLE, UNUSED_NOQA

if TYPE_CHECKING:
    from memlint.rules.base import FileProblem, Rule

    ALL_RULES: tuple[type[Rule], ...]
    BY_CODE: dict[str, type[Rule]]
    BY_NAME: dict[str, type[Rule]]
    FILE_PROBLEMS: tuple[FileProblem, ...]

__all__ = ["ALL_RULES", "BY_CODE", "BY_NAME", "FILE_CODES", "FILE_PROBLEMS", "SYNTAX_ERROR", "UNREADABLE", "UNUSED_NOQA"]


def _load() -> dict[str, Any]:
    from memlint.models import Applicability, Severity
    from memlint.rules.base import FileProblem

    rules = tuple(getattr(importlib.import_module(f"memlint.rules.{module}"), cls) for *_, module, cls in RULES)
    problems = (
        FileProblem(
            *SYNTAX_ERROR,
            summary="A file does not parse as Python",
            what="Reports a file that Python cannot parse.",
            why="memlint (and Python) cannot analyse a file that does not parse, so none of the other rules ran on it.",
            use_instead="Fix the syntax error; memlint then checks the file like any other.",
        ),
        FileProblem(
            *UNREADABLE,
            summary="A file cannot be read, decoded or parsed",
            what=(
                "Reports a file that cannot be read (permissions, a file that vanished, a FIFO, a symbolic link "
                "loop) or decoded (bytes that are not UTF-8 without a PEP 263 coding cookie that says otherwise, an "
                "unknown encoding, a notebook that is not valid JSON), or that is nested too deeply for the parser. "
                "The other files are still linted, and the run exits 1, as for any finding."
            ),
            why="None of the other rules ran on this file, so its leaks (if any) are not reported.",
            use_instead="Make the file readable, save it as UTF-8 (or declare its encoding), or exclude it.",
        ),
        FileProblem(
            *UNUSED_NOQA,
            summary="A suppression comment names a memlint rule that reports nothing there",
            what=(
                "Reports a memlint code or rule name in a `# noqa: ...` or `# memlint: ignore[...]` comment that "
                "suppressed no finding on its line, as ruff's RUF100 does. Off by default: select it "
                "(`--extend-select ML100`, or `ML100` in `extend-select`). Only rules that ran on the file are "
                "judged; a bare `# noqa` and other tools' codes are left alone."
            ),
            why=(
                "A comment that suppresses nothing hides the next real finding on that line, and misleads the "
                "reader into thinking the line leaks."
            ),
            use_instead="Remove the code from the comment (the safe fix, `--fix`), or the whole comment when it lists nothing else.",
            severity=Severity.WARNING,
            fix_applicability=Applicability.SAFE,
        ),
    )
    return {
        "ALL_RULES": rules,
        "BY_CODE": {r.code: r for r in rules},
        "BY_NAME": {r.name: r for r in rules},
        "FILE_PROBLEMS": problems,
    }


def _registry() -> dict[str, Any]:
    """This module's globals, the rule classes loaded into them."""
    if "ALL_RULES" not in globals():
        globals().update(_load())
    return globals()


def __getattr__(name: str) -> Any:
    if name in ("ALL_RULES", "BY_CODE", "BY_NAME", "FILE_PROBLEMS"):
        return _registry()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def documentation(code: str) -> str | None:
    """What `memlint explain` prints for a rule (ML000's and ML900's too); None for an unknown code."""
    rule = _registry()["BY_CODE"].get(code) or lookup_file_problem(code)
    return rule.documentation() if rule else None


def lookup(selector: str) -> type[Rule] | None:
    registry = _registry()
    return registry["BY_CODE"].get(selector.upper()) or registry["BY_NAME"].get(selector.lower())


def lookup_file_problem(selector: str) -> FileProblem | None:
    problems = _registry()["FILE_PROBLEMS"]
    return next((p for p in problems if selector.upper() == p.code or selector.lower() == p.name), None)
