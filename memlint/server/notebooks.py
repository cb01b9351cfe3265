"""Notebook documents (LSP `notebookDocument/*`): the code cells joined into one program
(memlint/notebook.py), and findings of that program moved into the cell documents."""

from __future__ import annotations

from dataclasses import dataclass, replace

from lsprotocol import types

from memlint.fixes import apply_fixes
from memlint.models import Edit, Finding, Fix, Position
from memlint.notebook import JoinedCells, NotebookError, join_cells


@dataclass
class Cells:
    """A notebook's code cells as the linter sees them."""

    joined: JoinedCells
    uris: list[str]  # the code cells' documents, in order

    def index_of(self, uri: str) -> int | None:
        return self.uris.index(uri) if uri in self.uris else None

    def to_cell(self, finding: Finding) -> tuple[int, Finding] | None:
        """The code cell a finding is in and the finding in that cell's rows; None when it spans cells."""
        index, start = self._locate(finding.location)
        end_index, end = self._locate(max(finding.location, finding.end_location))
        if end_index != index:
            return None
        fix = finding.fix
        if fix is not None and fix.edits:
            edits = [self._locate(e.start) + self._locate(e.end) for e in fix.edits]
            if not all(a == index and b == index for a, _, b, _ in edits):
                fix = None  # an edit outside the cell: no quick fix offered from it
            elif self.joined.masks[index]:
                fix = self._whole_cell_fix(index, finding)
            else:
                moved = tuple(Edit(e.content, s, t) for e, (_, s, _, t) in zip(fix.edits, edits))
                fix = Fix(fix.applicability, fix.message, moved)
        return index, replace(finding, location=start, end_location=end, fix=fix)

    def _whole_cell_fix(self, index: int, finding: Finding) -> Fix | None:
        """The fix as one edit replacing the cell: its edits may re-indent a masked IPython
        line, and only the way back through the joined program restores the magic."""
        fixed, applied = apply_fixes(self.joined.text, [finding], unsafe=True)
        try:
            changes = self.joined.changes(fixed) if applied else []
        except NotebookError:
            return None  # the fix would change the IPython line itself
        if [number for number, _, _ in changes] != [self.joined.numbers[index]]:
            return None
        _, old, new = changes[0]
        lines = old.split("\n")
        end = Position(len(lines), len(lines[-1]) + 1)
        return Fix(finding.fix.applicability, finding.fix.message, (Edit(new, Position(1, 1), end),))

    def _locate(self, position: Position) -> tuple[int, Position]:
        number, line = self.joined.locate(position.row)
        return self.joined.numbers.index(number), Position(line, position.column)


def code_cells(notebook: types.NotebookDocument, text_of) -> Cells:
    """The notebook's code cells (numbered as a reader counts every cell), joined in order."""
    sources, numbers, uris = [], [], []
    for number, cell in enumerate(notebook.cells, 1):
        if cell.kind == types.NotebookCellKind.Code:
            sources.append(text_of(cell.document))
            numbers.append(number)
            uris.append(cell.document)
    return Cells(join_cells(sources, numbers), uris)
