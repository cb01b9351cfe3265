"""The data every part of memlint exchanges: findings, fixes and edits."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any


class Severity(str, enum.Enum):
    ERROR = "error"
    WARNING = "warning"


class Applicability(str, enum.Enum):
    """How sure a fix is to keep behaviour (ruff's model)."""

    SAFE = "safe"
    UNSAFE = "unsafe"
    DISPLAY_ONLY = "display-only"


@dataclass(frozen=True, order=True)
class Position:
    """1-based row, 1-based column (in characters)."""

    row: int
    column: int

    def to_json(self) -> dict[str, int]:
        return {"row": self.row, "column": self.column}


@dataclass(frozen=True)
class Edit:
    """Replace the text between `start` and `end` with `content`."""

    content: str
    start: Position
    end: Position

    def to_json(self) -> dict[str, Any]:
        return {
            "content": self.content,
            "location": self.start.to_json(),
            "end_location": self.end.to_json(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Edit":
        return cls(
            data["content"],
            Position(**data["location"]),
            Position(**data["end_location"]),
        )


@dataclass(frozen=True)
class Fix:
    applicability: Applicability
    message: str
    edits: tuple[Edit, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "applicability": self.applicability.value,
            "message": self.message,
            "edits": [e.to_json() for e in self.edits],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Fix":
        return cls(
            Applicability(data["applicability"]),
            data["message"],
            tuple(Edit.from_json(e) for e in data["edits"]),
        )


@dataclass(frozen=True)
class Finding:
    code: str
    name: str
    message: str
    severity: Severity
    filename: str
    location: Position
    end_location: Position
    hint: str = ""
    fix: Fix | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.filename, self.location.row, self.location.column, self.code)

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "name": self.name,
            "message": self.message,
            "severity": self.severity.value,
            "filename": self.filename,
            "location": self.location.to_json(),
            "end_location": self.end_location.to_json(),
            "hint": self.hint,
            "fix": self.fix.to_json() if self.fix else None,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Finding":
        return cls(
            code=data["code"],
            name=data["name"],
            message=data["message"],
            severity=Severity(data["severity"]),
            filename=data["filename"],
            location=Position(**data["location"]),
            end_location=Position(**data["end_location"]),
            hint=data.get("hint", ""),
            fix=Fix.from_json(data["fix"]) if data.get("fix") else None,
        )


@dataclass
class FileError:
    """A file memlint could not lint: one line for the user, never a traceback."""

    filename: str
    message: str
    internal: bool = False  # a crash inside memlint (a rule), not a problem with the file
    note: bool = False  # the file was linted in part (an analysis over its budget): a warning, not an error


def describe(exc: BaseException) -> str:
    """One short line for an unexpected exception (reprs of CST nodes run to pages)."""
    try:
        text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    except (RecursionError, Exception):  # noqa: BLE001 - the str of a deep node recurses: the type must do
        text = ""
    if len(text) > 160:
        text = text[:157] + "..."
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


@dataclass
class LintResult:
    """What linting one file gave (memlint/engine.py), or its cache entry gave back."""

    path: str
    findings: list[Finding] = field(default_factory=list)
    errors: list[FileError] = field(default_factory=list)
    cache_key: str | None = None  # set once the file was read
    summary: dict = field(default_factory=dict)  # what other files may need (analysis/project.py)
