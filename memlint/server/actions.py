"""Code actions: a quick fix per finding, `# noqa` for a line, and fix-all (`source.fixAll.memlint`)."""

from __future__ import annotations

from typing import Sequence

from lsprotocol import types

from memlint.models import Applicability, Finding, Position
from memlint.rules import SYNTAX_ERROR
from memlint.server.convert import Lines, diagnostic, split_lines, text_edit
from memlint.suppression import add_noqa, commentable_rows

FIX_ALL_KIND = "source.fixAll.memlint"
FIX_ALL_TITLE = "Fix all safe memlint findings"


def wanted(kind: str, only: Sequence[str] | None) -> bool:
    """Whether the client asked for actions of `kind` (`only` lists kinds or their prefixes)."""
    return only is None or any(kind == k or kind.startswith(k + ".") for k in only)


class Editor:
    """Builds WorkspaceEdits on one document version, versioned when the client accepts them."""

    def __init__(self, uri: str, version: int | None, lines: Lines, versioned: bool) -> None:
        self.uri = uri
        self.version = version
        self.lines = lines
        self.versioned = versioned

    def edit(self, edits: list[types.TextEdit]) -> types.WorkspaceEdit:
        if self.versioned:
            document = types.OptionalVersionedTextDocumentIdentifier(uri=self.uri, version=self.version)
            return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(text_document=document, edits=edits)])
        return types.WorkspaceEdit(changes={self.uri: edits})


def quick_fix(finding: Finding, editor: Editor) -> types.CodeAction | None:
    """The finding's own fix, titled with its applicability; none for advice without edits."""
    fix = finding.fix
    if fix is None or not fix.edits or fix.applicability is Applicability.DISPLAY_ONLY:
        return None
    return types.CodeAction(
        title=f"{fix.message} ({fix.applicability.value})",
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[diagnostic(finding, editor.lines)],
        is_preferred=fix.applicability is Applicability.SAFE,
        edit=editor.edit([text_edit(edit, editor.lines) for edit in fix.edits]),
    )


def ignore_line(finding: Finding, text: str, editor: Editor) -> types.CodeAction | None:
    """"Ignore MLxxx for this line": `# noqa: MLxxx` on the finding's first line (or its last,
    where a comment cannot go on the first), merged into a `# noqa:` list already there."""
    if finding.code == SYNTAX_ERROR[0]:
        return None  # a file that does not parse is reported whatever its comments say
    rows = commentable_rows(text)
    if rows is None:  # does not tokenize: no line is known to take a comment
        return None
    row = next((r for r in (finding.location.row, finding.end_location.row) if r in rows), None)
    if row is None:
        return None
    line = editor.lines.lines[row - 1]
    new = add_noqa(line, finding.code)
    if new == line:
        return None
    edit = types.TextEdit(range=editor.lines.range(Position(row, 1), Position(row, len(line) + 1)), new_text=new)
    return types.CodeAction(
        title=f"Ignore {finding.code} for this line",
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[diagnostic(finding, editor.lines)],
        edit=editor.edit([edit]),
    )


def fix_all(old: str, new: str, editor: Editor) -> types.CodeAction:
    """One edit from the old text to the fixed one: the lines between their common prefix and suffix."""
    old_lines = split_lines(old)
    new_lines = split_lines(new)
    prefix = 0
    while prefix < min(len(old_lines), len(new_lines)) and old_lines[prefix] == new_lines[prefix]:
        prefix += 1
    suffix = 0
    while (
        suffix < min(len(old_lines), len(new_lines)) - prefix
        and old_lines[len(old_lines) - 1 - suffix] == new_lines[len(new_lines) - 1 - suffix]
    ):
        suffix += 1
    start = Position(prefix + 1, 1)
    end = Position(len(old_lines) - suffix + 1, 1)
    replacement = "".join(new_lines[prefix : len(new_lines) - suffix])
    edit = types.TextEdit(range=editor.lines.range(start, end), new_text=replacement)
    return types.CodeAction(title=FIX_ALL_TITLE, kind=FIX_ALL_KIND, edit=editor.edit([edit]))
