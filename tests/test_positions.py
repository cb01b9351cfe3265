"""Source positions (analysis/positions.py): statement lines from `ast` equal those of generating
the module's code, and ranges generated per statement, stopping early, equal LibCST's."""

from __future__ import annotations

from pathlib import Path

import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from memlint.analysis.positions import Positions, first_lines_from_text, statement_lines
from memlint.analysis.tree import Tree
from memlint.parsing import parse_module

CASES = sorted((Path(__file__).parent.parent / "test_cases").glob("ML*/*.py"))

# Texts where the two parsers must agree line for line (or `ast` must step aside).
SHAPES = {
    "carriage returns": "x = 1\ry = 2\r\rdef f():\r    pass\r",
    "crlf and a comment": "x = 1\r\ny = 2\r\n\r\n# c\r\ndef f():\r\n    pass\r\n",
    "form feed line": "x = 1\n\f\ny = 2\n",
    "decorators with lines between": "# h\n\n@a\n\n# c\n@b(\n  1)\n\nclass C:\n  x = 1\n  # footer\n\n# lead\nz = 3\n",
    "semicolons": "a = 1; b = 2\nif x: c = 1; d = 2\n",
    "no final line break": "x = 1\ny = (\n 2)",
    "comments only": "# a\n# b\n",
    "empty": "",
    "docstring": '"""doc\n\nmore"""\nx = 1\n',
    "continuation": "x = 1 + \\\n  2\ny = 3\n",
    "strings over lines": "s = '''\nabc\n'''\n\ndef f():\n    return '''\n x'''\n",
    "match": "match x:\n    case 1:\n        pass\n# after\ny = 1\n",
    "async": "@d\nasync def f():\n    async with a:\n        pass\n",
    "try with comments between clauses": "try:\n    pass\nexcept E:\n    pass\n# mid\nelse:\n    pass\n  # deep\nz=1\n",
    "indented first comment": "  # c\nx = 1\n",
    "tabs": "if x:\n\tpass\n\t# c\ny = 1\n",
    # where `ast` cannot say (the `@` above its expression's line, a statement after a form feed):
    "decorator expression on the next line": "@(\nfoo)\ndef f(): pass\n",
    "form feed before a statement": "x = 1\n\fy = 2\n",
}


@pytest.mark.parametrize("name", SHAPES)
def test_first_lines_from_ast_equal_those_of_code_generation(name: str) -> None:
    text = SHAPES[name]
    module = parse_module(text)
    found = first_lines_from_text(module, text)
    if name in ("decorator expression on the next line", "form feed before a statement"):
        assert found is None
    else:
        assert found == statement_lines(module)


@pytest.mark.parametrize("case", CASES[::20], ids=lambda p: p.parent.name[:5] + "/" + p.name)
def test_ranges_equal_libcst_positions(case: Path) -> None:
    """Every node's range equals LibCST's, asked one statement at a time (generation stops after
    the nodes asked about), then node by node in reverse (past where the first generation stopped)."""
    text = case.read_text()
    module = parse_module(text)
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    assert first_lines_from_text(module, text) == statement_lines(module)
    tree = Tree(module)
    positions = Positions(module, tree.parent_of, text=text)
    nodes = sorted((n for same in tree.by_type.values() for n in same if n is not module), key=lambda n: tree.order[id(n)])
    assert nodes
    first_half = positions.ranges(nodes[: len(nodes) // 2])
    assert first_half and all(expected[n] == r for n, r in first_half.items())
    for node in reversed(nodes):
        assert positions.range_of(node) == expected[node]
