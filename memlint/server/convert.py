"""memlint's findings and edits as LSP types, in the position encoding the client chose."""

from __future__ import annotations

import re

from lsprotocol import types
from pygls.workspace.position_codec import PositionCodec

from memlint.formats.common import message_with_hint, rule_help_uri
from memlint.models import Edit, FileError, Finding, Position, Severity

SOURCE = "memlint"
_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # what both Python and LSP count as a line break
_LINE_WITH_BREAK = re.compile(r".*?(?:\r\n|\r|\n)|.+$", re.DOTALL)


def split_lines(text: str) -> list[str]:
    """The text's lines with their line breaks (only those Python and LSP count)."""
    return _LINE_WITH_BREAK.findall(text)


class Lines:
    """A text's lines, for converting 1-based character columns to and from the client's units."""

    def __init__(self, text: str, codec: PositionCodec) -> None:
        self.lines = _LINE_BREAK.split(text)
        self.codec = codec

    def to_client(self, position: Position) -> types.Position:
        line = position.row - 1
        if line >= len(self.lines):  # past the end (an insertion after a last line break)
            return types.Position(len(self.lines) - 1, self.codec.client_num_units(self.lines[-1]))
        text = self.lines[max(line, 0)]
        return types.Position(max(line, 0), self.codec.client_num_units(text[: max(position.column - 1, 0)]))

    def range(self, start: Position, end: Position) -> types.Range:
        return types.Range(self.to_client(start), self.to_client(max(start, end)))

    def from_client(self, position: types.Position) -> Position:
        """An LSP position as memlint's 1-based row and character column."""
        if position.line >= len(self.lines):
            return Position(len(self.lines), len(self.lines[-1]) + 1)
        text = self.lines[position.line]
        units = 0
        column = 0
        while column < len(text) and units < position.character:
            units += self.codec.client_num_units(text[column])
            column += 1
        return Position(position.line + 1, column + 1)


def diagnostic(finding: Finding, lines: Lines) -> types.Diagnostic:
    severity = types.DiagnosticSeverity.Error if finding.severity is Severity.ERROR else types.DiagnosticSeverity.Warning
    return types.Diagnostic(
        range=lines.range(finding.location, finding.end_location),
        message=message_with_hint(finding),
        severity=severity,
        code=finding.code,
        code_description=types.CodeDescription(href=rule_help_uri(finding.code)),
        source=SOURCE,
    )


def error_diagnostic(message: str) -> types.Diagnostic:
    """A file that could not be linted, or a broken configuration: one diagnostic at the top."""
    return types.Diagnostic(
        range=types.Range(types.Position(0, 0), types.Position(0, 0)),
        message=message,
        severity=types.DiagnosticSeverity.Error,
        source=SOURCE,
    )


def file_error_diagnostic(error: FileError) -> types.Diagnostic:
    kind = "internal error" if error.internal and not error.message.startswith("internal error") else ""
    return error_diagnostic(f"memlint: {kind + ': ' if kind else ''}{error.message}")


def text_edit(edit: Edit, lines: Lines) -> types.TextEdit:
    return types.TextEdit(range=lines.range(edit.start, edit.end), new_text=edit.content)


def contains(finding: Finding, position: Position) -> bool:
    """Whether a position lies on the finding's range (its end included, as an editor's cursor)."""
    return finding.location <= position <= max(finding.location, finding.end_location)


def overlaps(finding: Finding, start: Position, end: Position) -> bool:
    return finding.location <= end and start <= max(finding.location, finding.end_location)
