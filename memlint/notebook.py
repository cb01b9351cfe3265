"""Jupyter notebooks (`.ipynb`, nbformat 4): one program from the code cells,
positions back to cells, and fixed code written back into the right cells.

    notebook = read_notebook("train.ipynb")      # or parse_notebook(raw, path); NotebookError
    notebook.text                                # the program the linter parses (= notebook.code.text)
    notebook.code.locate(row)                    # -> (cell number, line in cell); columns are unchanged
    notebook.code.row(cell, line)                # the inverse
    notebook.code.changes(fixed_program)         # -> [(cell number, old source, new source)]
    notebook.with_source(fixed_program)          # -> the new file's bytes
    notebook.file_line(row)                      # the .ipynb line that holds a program row

    joined = join_cells(["import torch", "%time f()"])   # an editor's cells, numbered 1, 2, ...
    joined.text, joined.locate(row), joined.changes(fixed_program)

The program (`JoinedCells`) is the code cells in order, each followed by a
boundary comment line (`#%% memlint cell`), so one parse sees every cell and
the project-wide analysis sees the notebook as one module. IPython syntax
(`%time`, `%%capture`, `!pip install`, `x = !ls`, `obj?`) is masked by a
placeholder of the same length on the same line (`0#...`: a statement, so a
masked line inside a block still parses; the rest becomes a comment), so
columns and line numbers within each cell are those of the cell. A cell magic
whose body is Python (`%%time`, `%%capture`, ...) masks its first line only;
any other (`%%bash`, `%%writefile`) turns the whole cell into comments.

Cell numbers are 1-based and count every cell of the notebook (markdown and
raw cells included), as a reader counts them; markdown and raw cells
contribute no code. Editors that hold the cells' text (a language server)
join them with `join_cells`.

Writing back never re-serialises the document: the JSON text of each changed
cell's `"source"` value is replaced in place, in the layout it had (one string
per line, the same indentation; an unchanged line keeps its exact JSON text),
and the result is checked to decode to the original document with only those
sources changed. Outputs, execution counts, metadata, `nbformat_minor`, key
order and the trailing newline stay byte for byte what they were.
"""

from __future__ import annotations

import bisect
import io
import json
import re
import tokenize
from dataclasses import dataclass, field
from typing import Any, Sequence

NOTEBOOK_SUFFIX = ".ipynb"
MARKER = "#%% memlint cell"  # the boundary line between two cells in the program

# Cell magics that run their body as Python in the notebook's namespace: only their `%%name`
# line is masked. Others (`%%bash`, `%%writefile`, `%%python3` in a subprocess) are not this program.
PYTHON_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun", "debug", "memit"})

_LINE_MAGIC = re.compile(r"[ \t]*(?:[%!]|\?)")  # `%time ...`, `!pip ...`, `?obj`
_HELP_END = re.compile(r"[ \t]*%{0,2}[A-Za-z_*][\w*]*(?:\.[A-Za-z_*][\w*]*)*\?\??[ \t]*(?:\r\n|\r|\n)?\Z")  # `obj?`
_ASSIGN_MAGIC = re.compile(r"[ \t]*[\w.\[\], ]+?[ \t]*=[ \t]*(?=[%!])")  # `files = !ls`, `t = %timeit -o f()`
_LINE_END = re.compile(r"(?:\r\n|\r|\n)\Z")


class NotebookError(ValueError):
    """The file is not a notebook memlint can read or write: one line for the user."""


def is_notebook(path: str) -> bool:
    return path.endswith(NOTEBOOK_SUFFIX)


# --------------------------------------------------------------------------- masking IPython syntax


@dataclass(frozen=True)
class _Mask:
    row: int  # 0-based line in the cell
    original: str  # the line as written, without its line break
    placeholder: str  # what the program holds instead (same length)


def _placeholder(line: str, start: int) -> str:
    """`line` with everything from `start` replaced by `0#...` of the same length."""
    tail = line[start:]
    if len(tail) <= 2:
        return line[:start] + "0#"[: len(tail)]
    return line[:start] + "0#" + tail[2:]


def _comment_out(line: str) -> str:
    body = line.lstrip(" \t")
    if not body:
        return line
    return line[: len(line) - len(body)] + "#" + body[1:]


def _split_lines(text: str) -> list[tuple[str, str]]:
    """(content, line break) pairs, breaking where Python's tokenizer does."""
    pieces = re.split(r"(\r\n|\r|\n)", text)
    pairs = [(pieces[i], pieces[i + 1]) for i in range(0, len(pieces) - 1, 2)]
    if pieces[-1]:
        pairs.append((pieces[-1], ""))
    return pairs


def _lines(text: str) -> list[str]:
    return [content + end for content, end in _split_lines(text)]


def _magic_start(line: str) -> int | None:
    """Where IPython syntax starts in a line read at the start of a statement, or None."""
    match = _LINE_MAGIC.match(line)
    if match:
        return match.end() - 1
    if line.rstrip().endswith("?") and _HELP_END.match(line):
        return len(line) - len(line.lstrip(" \t"))
    match = _ASSIGN_MAGIC.match(line)
    if match and not line[match.end() :].startswith(("%=", "!=")):
        return match.end()
    return None


def _statement_starts(text: str) -> set[int] | None:
    """0-based rows where a new statement may begin (not inside brackets, strings or a
    backslash continuation); None when the text does not tokenize."""
    starts = {0}
    depth = 0
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.OP and token.string in "([{":
                depth += 1
            elif token.type == tokenize.OP and token.string in ")]}":
                depth = max(depth - 1, 0)
            elif token.type in (tokenize.NEWLINE, tokenize.NL) and depth == 0:
                starts.add(token.end[0])  # token rows are 1-based: the next row, 0-based
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return None
    return starts


def mask_cell(text: str) -> tuple[str, tuple[_Mask, ...]]:
    """The cell's text with IPython syntax masked (same lines, same columns), and what was masked."""
    if "%" not in text and "!" not in text and "?" not in text:
        return text, ()
    lines = _split_lines(text)
    if not lines:
        return text, ()
    masked: dict[int, str] = {}
    first = lines[0][0]
    if first.startswith("%%"):
        name = first[2:].split(maxsplit=1)[0] if first[2:].strip() else ""
        if name not in PYTHON_CELL_MAGICS:  # not Python at all: the whole cell becomes comments
            for row, (content, _) in enumerate(lines):
                masked[row] = "#" + content[1:] if row == 0 else _comment_out(content)
            return _assemble(lines, masked)
        masked[0] = _placeholder(first, 0)
    candidates: dict[int, str] = {}
    continued = False
    for row, (content, _) in enumerate(lines):
        if row in masked:
            continue
        if continued:  # a `\` at the end of a magic line continues the magic
            candidates[row] = _comment_out(content)
        else:
            start = _magic_start(content)
            if start is not None:
                candidates[row] = _placeholder(content, start)
        continued = row in candidates and content.rstrip().endswith("\\")
    # A candidate inside a string or brackets (`"""\n!important`, `(a\n % b)`) is Python: drop it, re-check.
    for _ in range(len(candidates) + 1):
        trial, _ = _assemble(lines, {**masked, **candidates})
        # A wrong mask may break the tokens (`(a\n % b)` loses its `)`): then read the text as written.
        starts = _statement_starts(trial) or _statement_starts(_assemble(lines, masked)[0])
        if starts is None:
            break
        wrong = {row for row in candidates if row not in starts}
        if not wrong:
            break
        for row in wrong:
            del candidates[row]
    masked.update(candidates)
    return _assemble(lines, masked)


def _assemble(lines: list[tuple[str, str]], masked: dict[int, str]) -> tuple[str, tuple[_Mask, ...]]:
    out = []
    masks = []
    for row, (content, end) in enumerate(lines):
        if row in masked and masked[row] != content:
            out.append(masked[row] + end)
            masks.append(_Mask(row, content, masked[row]))
        else:
            out.append(content + end)
    return "".join(out), tuple(masks)


def _unmask(text: str, masks: Sequence[_Mask]) -> str:
    """Put the masked IPython lines back into a (possibly fixed) cell: each placeholder,
    found in order by its text without indentation, gets its original back at the
    indentation it now has (a fix may have re-indented its block)."""
    if not masks:
        return text
    lines = _split_lines(text)
    pending = list(masks)
    out = []
    for content, end in lines:
        if pending and content.strip() == pending[0].placeholder.strip():
            mask = pending.pop(0)
            indent = content[: len(content) - len(content.lstrip(" \t"))]
            original = mask.original
            out.append(indent + original[len(original) - len(original.lstrip(" \t")) :] + end)
        else:
            out.append(content + end)
    if pending:
        raise NotebookError(f"a fix changed a line that holds IPython syntax ({pending[0].original.strip()!r})")
    return "".join(out)


# --------------------------------------------------------------------------- the program


@dataclass
class JoinedCells:
    """The code cells as one program, and the way back to cells.

    `text` is what the linter sees; rows and columns of `text` are what
    findings carry. `numbers[k]` is the notebook cell number (1-based) of the
    k-th code cell; `starts[k]` its first row in `text`.
    """

    text: str
    numbers: list[int]
    starts: list[int]
    sources: list[str]  # each code cell's text as written (magics included)
    masks: list[tuple[_Mask, ...]] = field(repr=False)
    newline_added: list[bool] = field(repr=False)
    marker: str = MARKER

    def locate(self, row: int) -> tuple[int, int]:
        """(cell number, 1-based line in that cell) of a 1-based row of `text`.

        The boundary line after a cell counts as the line after the cell's last.
        """
        index = max(bisect.bisect_right(self.starts, row) - 1, 0)
        return self.numbers[index], row - self.starts[index] + 1

    def row(self, cell: int, line: int) -> int:
        """The row of `text` that holds `line` (1-based) of notebook cell `cell`."""
        return self.starts[self.numbers.index(cell)] + line - 1

    def split(self, text: str) -> list[str]:
        """The code cells' sources (IPython lines restored) for a changed program `text`.

        Raises NotebookError when `text` no longer has one boundary line
        between each pair of cells, or a fix changed a masked IPython line.
        """
        pieces: list[list[str]] = [[]]
        boundary = self.marker + "\n"
        for line in _lines(text):
            if line == boundary:
                pieces.append([])
            else:
                pieces[-1].append(line)
        if len(pieces) != len(self.numbers):
            raise NotebookError("a fix moved code across a cell boundary")
        masked_now = self._masked_sources()
        out = []
        for index, lines in enumerate(pieces):
            cell = "".join(lines)
            if cell == masked_now[index]:
                out.append(self.sources[index])  # unchanged: exactly as written
                continue
            if self.newline_added[index] and cell.endswith("\n"):
                cell = cell[:-1]
            out.append(_unmask(cell, self.masks[index]))
        return out

    def changes(self, text: str) -> list[tuple[int, str, str]]:
        """(cell number, old source, new source) of each cell that the changed program
        `text` changes (an editor applies a fix to `text`, then replaces these cells)."""
        new = self.split(text)
        return [(number, old, changed) for number, old, changed in zip(self.numbers, self.sources, new) if old != changed]

    def _masked_sources(self) -> list[str]:
        """Each code cell as it appears in `text` (masked, with the line break the join added)."""
        lines = _lines(self.text)
        bounds = [start - 1 for start in self.starts] + [len(lines) + 1]
        return ["".join(lines[bounds[k] : bounds[k + 1] - 1]) for k in range(len(self.starts))]


def join_cells(sources: Sequence[str], numbers: Sequence[int] | None = None) -> JoinedCells:
    """Join code cells' texts into one program. `numbers`: the cells' numbers (default 1, 2, ...)."""
    numbers = list(numbers) if numbers is not None else list(range(1, len(sources) + 1))
    if len(numbers) != len(sources):
        raise ValueError("one number per cell")
    marker = MARKER
    while any(marker in source for source in sources):  # never one of the user's lines
        marker += "!"
    parts: list[str] = []
    starts: list[int] = []
    masks: list[tuple[_Mask, ...]] = []
    added: list[bool] = []
    row = 1
    for index, source in enumerate(sources):
        masked, cell_masks = mask_cell(source)
        needs_newline = bool(masked) and not _LINE_END.search(masked)
        if needs_newline:
            masked += "\n"
        starts.append(row)
        masks.append(cell_masks)
        added.append(needs_newline)
        parts.append(masked)
        row += len(_split_lines(masked))
        if index < len(sources) - 1:
            parts.append(marker + "\n")
            row += 1
    return JoinedCells("".join(parts), numbers, starts, list(sources), masks, added, marker)


# --------------------------------------------------------------------------- the file


@dataclass
class Notebook:
    """A parsed `.ipynb` file: its bytes, its JSON document and its program."""

    path: str
    raw: bytes
    document: dict[str, Any]
    code: JoinedCells
    code_cells: list[int]  # index into document["cells"] of each code cell, in order
    _line_map: list[list[int]] | None = field(default=None, init=False, repr=False)

    @property
    def text(self) -> str:
        return self.code.text

    def with_source(self, text: str) -> bytes:
        """The file's new bytes with the program `text` (a changed `code.text`) written
        back into its cells; everything else byte for byte as it was.

        Raises NotebookError when the change cannot be put back into the cells.
        """
        return self.with_cells(self.code.split(text))

    def with_cells(self, sources: Sequence[str]) -> bytes:
        """The file's new bytes with each code cell's source replaced by `sources` (in order)."""
        original = self.raw.decode("utf-8-sig")
        bom = self.raw.startswith(b"\xef\xbb\xbf")
        spans = _source_spans(original)
        ensure_ascii = _escapes_non_ascii(original)
        pieces = []
        cursor = 0
        expected = json.loads(original)
        for index, new in zip(self.code_cells, sources):
            cell = self.document["cells"][index]
            if _source_text(cell["source"]) == new:
                continue
            start, end = spans[index]
            pieces.append(original[cursor:start])
            pieces.append(_render_source(original, start, end, cell["source"], new, ensure_ascii))
            cursor = end
            expected["cells"][index]["source"] = new
        pieces.append(original[cursor:])
        result = "".join(pieces)
        try:
            written = json.loads(result)
        except ValueError as exc:
            raise NotebookError(f"writing the cells back would break the JSON ({exc})") from None
        for cell in written.get("cells", []):
            if isinstance(cell.get("source"), list):
                cell["source"] = "".join(cell["source"])
        for cell in expected.get("cells", []):
            if isinstance(cell.get("source"), list):
                cell["source"] = "".join(cell["source"])
        if written != expected:
            raise NotebookError("writing the cells back would change more than their code")
        return (b"\xef\xbb\xbf" if bom else b"") + result.encode("utf-8")

    def file_line(self, row: int) -> int:
        """The line of the `.ipynb` file that holds row `row` of the program (for
        annotations and git diffs: a cell stored as one string is on one line)."""
        lines = self._file_lines()
        cell, line = self.code.locate(row)
        cell_lines = lines[self.code.numbers.index(cell)]
        if not cell_lines:
            return 1
        return cell_lines[min(max(line, 1), len(cell_lines)) - 1]

    def rows_on_file_lines(self, file_lines: set[int]) -> set[int]:
        """The program rows whose source text lies on any of these `.ipynb` lines."""
        rows = set()
        for k, cell_lines in enumerate(self._file_lines()):
            for line, file_line in enumerate(cell_lines, start=1):
                if file_line in file_lines:
                    rows.add(self.code.starts[k] + line - 1)
        return rows

    def _file_lines(self) -> list[list[int]]:
        """Per code cell, the `.ipynb` line of each of its source lines."""
        if self._line_map is None:
            original = self.raw.decode("utf-8-sig")
            spans = _source_spans(original)
            out = []
            for index, source in zip(self.code_cells, self.code.sources):
                start, end = spans[index]
                first = original.count("\n", 0, start) + 1
                count = len(_split_lines(source))
                value = self.document["cells"][index]["source"]
                if isinstance(value, list) and len(value) == count:
                    items = _item_offsets(original, start, end)
                    out.append([first + original.count("\n", start, offset) for offset in items])
                else:
                    out.append([first] * count)
            self._line_map = out
        return self._line_map


def parse_notebook(raw: bytes, path: str = "<notebook>") -> Notebook:
    """Parse `.ipynb` bytes. Raises NotebookError (one line) for anything that is not an nbformat 4 notebook."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise NotebookError(f"not a Jupyter notebook: not UTF-8 (byte 0x{raw[exc.start]:02x} at offset {exc.start})") from None
    try:
        document = json.loads(text)
    except ValueError as exc:
        where = f" (line {exc.lineno}, column {exc.colno})" if isinstance(exc, json.JSONDecodeError) else ""
        message = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)
        raise NotebookError(f"not a Jupyter notebook: invalid JSON{where}: {message}") from None
    except RecursionError:
        raise NotebookError("not a Jupyter notebook: JSON nested too deeply") from None
    if not isinstance(document, dict) or not isinstance(document.get("cells"), list):
        if isinstance(document, dict) and "worksheets" in document:
            raise NotebookError("nbformat 3 notebooks are not supported (convert with `jupyter nbconvert --to notebook`)")
        raise NotebookError('not a Jupyter notebook: no "cells" list at the top level')
    major = document.get("nbformat")
    if major != 4:
        raise NotebookError(f"not a Jupyter notebook in nbformat 4 (nbformat is {major!r})")
    sources: list[str] = []
    numbers: list[int] = []
    code_cells: list[int] = []
    python = _is_python(document)
    for index, cell in enumerate(document["cells"]):
        if not isinstance(cell, dict) or not isinstance(cell.get("cell_type"), str):
            raise NotebookError(f"not a Jupyter notebook: cell {index + 1} has no cell_type")
        value = cell.get("source", "")
        if not (isinstance(value, str) or (isinstance(value, list) and all(isinstance(v, str) for v in value))):
            raise NotebookError(f"not a Jupyter notebook: cell {index + 1} has a source that is not text")
        if cell["cell_type"] != "code" or not python or not _cell_is_python(cell):
            continue
        if "source" not in cell:
            raise NotebookError(f"not a Jupyter notebook: code cell {index + 1} has no source")
        sources.append(_source_text(value))
        numbers.append(index + 1)
        code_cells.append(index)
    return Notebook(path, raw, document, join_cells(sources, numbers), code_cells)


def read_notebook(path: str) -> Notebook:
    """Read and parse a `.ipynb` file (OSError as `open` raises it; NotebookError)."""
    with open(path, "rb") as handle:
        return parse_notebook(handle.read(), path)


def _is_python(document: dict[str, Any]) -> bool:
    """Whether the notebook's kernel runs Python (an R or Julia notebook has no code for memlint)."""
    metadata = document.get("metadata")
    if not isinstance(metadata, dict):
        return True
    for key, field_name in (("language_info", "name"), ("kernelspec", "language")):
        section = metadata.get(key)
        if isinstance(section, dict) and isinstance(section.get(field_name), str):
            return section[field_name].lower() == "python"
    return True


def _cell_is_python(cell: dict[str, Any]) -> bool:
    """Whether a code cell holds Python: VS Code marks a cell of another language in its metadata
    (`"vscode": {"languageId": "plaintext"}`: sample output pasted into a code cell, shell, SQL)."""
    editor = cell.get("metadata", {}).get("vscode") if isinstance(cell.get("metadata"), dict) else None
    language = editor.get("languageId") if isinstance(editor, dict) else None
    return not isinstance(language, str) or language.lower() == "python"


def _source_text(value: str | list[str]) -> str:
    return value if isinstance(value, str) else "".join(value)


# --------------------------------------------------------------------------- the JSON text


_WHITESPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


def _skip(text: str, index: int) -> int:
    return _WHITESPACE.match(text, index).end()  # type: ignore[union-attr]


def _members(text: str, index: int):
    """(key, value start, value end) of each member of the object at `index`, in order."""
    if text[index] != "{":
        raise NotebookError("not a Jupyter notebook: expected an object")
    index = _skip(text, index + 1)
    if text[index] == "}":
        return
    while True:
        key, index = json.decoder.scanstring(text, index + 1)
        index = _skip(text, index)
        value = _skip(text, index + 1)  # past the ':'
        _, end = _DECODER.raw_decode(text, value)
        yield key, value, end
        index = _skip(text, end)
        if text[index] == "}":
            return
        index = _skip(text, index + 1)  # past the ','


def _elements(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """(start, end) of each element of the array `text[start:end]`."""
    out = []
    index = _skip(text, start + 1)
    while text[index] != "]":
        _, stop = _DECODER.raw_decode(text, index)
        out.append((index, stop))
        index = _skip(text, stop)
        if text[index] == ",":
            index = _skip(text, index + 1)
    return out


def _source_spans(text: str) -> dict[int, tuple[int, int]]:
    """The (start, end) offsets of each cell's `"source"` value in the notebook's JSON text."""
    spans: dict[int, tuple[int, int]] = {}
    for key, start, end in _members(text, _skip(text, 0)):
        if key != "cells":
            continue
        for index, (cell_start, _) in enumerate(_elements(text, start, end)):
            for cell_key, value_start, value_end in _members(text, cell_start):
                if cell_key == "source":
                    spans[index] = (value_start, value_end)
    return spans


def _item_offsets(text: str, start: int, end: int) -> list[int]:
    return [item_start for item_start, _ in _elements(text, start, end)]


def _escapes_non_ascii(text: str) -> bool:
    """Whether the file writes non-ASCII characters as `\\uXXXX` (Python's json default) or as themselves (nbformat)."""
    if not text.isascii():
        return False
    return bool(re.search(r"\\u(?:00[89a-fA-F][0-9a-fA-F]|0[1-9a-fA-F][0-9a-fA-F]{2}|[1-9a-fA-F][0-9a-fA-F]{3})", text))


def _render_source(text: str, start: int, end: int, old: str | list[str], new: str, ensure_ascii: bool) -> str:
    """The JSON text of a new `"source"` value in the layout of the old one at `text[start:end]`."""
    if isinstance(old, str):
        return json.dumps(new, ensure_ascii=ensure_ascii)
    lines = new.splitlines(keepends=True)  # as nbformat splits a source into strings
    if not lines:
        return "[]"
    items = _elements(text, start, end)
    reuse = {}
    for (item_start, item_end), value in zip(items, old):
        reuse.setdefault(value, text[item_start:item_end])
    rendered = [reuse.get(line) or json.dumps(line, ensure_ascii=ensure_ascii) for line in lines]
    if items:
        opening = text[start + 1 : items[0][0]]
        closing = text[items[-1][1] : end - 1]
        between = text[items[0][1] : items[1][0]] if len(items) > 1 else "," + opening
    else:  # `[]`: indent as nbformat does, one level below the "source" key
        prefix = text[text.rfind("\n", 0, start) + 1 : start]  # `   "source": `
        key_indent = prefix[: len(prefix) - len(prefix.lstrip(" \t"))]
        unit = _indent_unit(text)
        if unit is None:
            opening, closing, between = "", "", ","
        else:
            newline = "\r\n" if "\r\n" in text else "\n"
            opening, closing = newline + key_indent + unit, newline + key_indent
            between = "," + opening
    return "[" + opening + between.join(rendered) + closing + "]"


def _indent_unit(text: str) -> str | None:
    """The indentation of the document's first member (nbformat: one space); None for one-line JSON."""
    match = re.match(r"\s*\{\r?\n([ \t]+)\"", text)
    return match.group(1) if match else None
