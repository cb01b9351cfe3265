"""The language server's incremental parser: the module it splices equals a full parse,
and linting through it gives exactly the findings (positions and fixes included) of a plain lint."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from memlint.analysis.questions import ANSWERS
from memlint.project_index import QUESTION_PARTS
from memlint.analysis.syntax.tree import Tree
from memlint.config import load_settings
from memlint.engine import lint_text
from memlint.server.incremental import IncrementalParser

CASES = sorted(p for p in (Path(__file__).parent.parent / "test_cases").glob("ML*/bad_*.py") if ".fixed" not in p.name)
SETTINGS = load_settings(isolated=True)


def edits(text: str) -> list[str]:
    """Texts an editor could produce from `text`, one edit at a time, on lines across the file."""
    lines = text.splitlines(keepends=True)
    out = []
    for i in range(0, len(lines), max(1, len(lines) // 4)):
        line = lines[i]
        indent = line[: len(line) - len(line.lstrip())] if line.strip() else ""
        variants = [
            [*lines[:i], line.rstrip("\n") + "  # edited\n", *lines[i + 1 :]],
            [*lines[:i], *lines[i + 1 :]],  # a deleted line
            [*lines[:i], line, line, *lines[i + 1 :]],  # a duplicated line
            [*lines[:i], "\n", "# a note\n", *lines[i:]],
            [*lines[:i], f"{indent}value = compute(1)\n", *lines[i:]],
            [*lines[:i], f"{indent}if broken(\n", *lines[i:]],  # does not parse
        ]
        out.extend("".join(v) for v in variants)
    return out


@pytest.mark.parametrize("case", CASES[::16], ids=lambda p: p.parent.name[:5] + "/" + p.name)
def test_spliced_module_equals_a_full_parse_and_lints_the_same(case: Path) -> None:
    original = case.read_text()
    for text in edits(original):
        parser = IncrementalParser()
        parser.parse(original)
        try:
            expected = cst.parse_module(text)
        except cst.ParserSyntaxError:
            with pytest.raises(cst.ParserSyntaxError):
                parser.parse(text)
            continue
        module = parser.parse(text)
        assert module.code == text and module.deep_equals(expected)
        plain = lint_text(str(case), text, SETTINGS)
        parser = IncrementalParser()
        parser.parse(original)
        through = lint_text(str(case), text, SETTINGS, parser=parser)
        assert through.findings == plain.findings and through.errors == plain.errors
        assert through.summary == {k: v for k, v in plain.summary.items() if k not in (*QUESTION_PARTS, ANSWERS)}


@pytest.mark.parametrize("directory", sorted({case.parent for case in CASES}), ids=lambda p: p.name[:5])
def test_positions_and_fixes_from_single_statements_equal_the_whole_module(directory: Path) -> None:
    """Every bad case, linted through the parser (which knows each top-level statement's first line,
    so positions and fixes are rendered from single statements), gives the findings and fix edits
    of a plain lint."""
    for case in sorted(directory.glob("bad_*.py")):
        if ".fixed" in case.name:
            continue
        text = case.read_text()
        parser = IncrementalParser()
        through = lint_text(str(case), text, SETTINGS, parser=parser)
        assert parser.statement_lines is not None
        assert through.findings == lint_text(str(case), text, SETTINGS).findings, case.name


def test_an_edit_inside_a_function_parses_only_that_function() -> None:
    functions = "".join(f"\n\ndef f{i}(x):\n    y = x + {i}\n    return y\n" for i in range(50))
    text = "import torch\n" + functions
    parser = IncrementalParser()
    parser.parse(text)
    edited = text.replace("y = x + 25", "y = x * 25")
    module = parser.parse(edited)
    assert parser.full_parses == 1 and module.deep_equals(cst.parse_module(edited))
    assert parser.statement_lines[id(module.body[26])] == edited.splitlines().index("def f25(x):") + 1 - 2


@pytest.mark.parametrize("case", CASES[::16], ids=lambda p: p.parent.name[:5] + "/" + p.name)
def test_tree_reusing_unchanged_statements_equals_a_fresh_walk(case: Path) -> None:
    """The analysis indexes built from the previous tree's walks are those of a fresh walk."""
    original = case.read_text()
    for text in edits(original):
        parser = IncrementalParser()
        parser.tree(parser.parse(original))
        try:
            module = parser.parse(text)
        except cst.ParserSyntaxError:
            continue
        reused, fresh = parser.tree(module), Tree(module)
        assert reused.order == fresh.order and reused.up == fresh.up and reused._ends == fresh._ends
        assert list(map(id, reused.nodes)) == list(map(id, fresh.nodes))
        assert dict(reused.by_type) == dict(fresh.by_type)
