"""Source positions (analysis/syntax/positions.py): statement lines from `ast` equal those of generating
the module's code, and ranges generated per statement, stopping early, equal LibCST's."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider, WhitespaceInclusivePositionProvider

from memlint.analysis.syntax.positions import Positions, statement_lines
from memlint.analysis.syntax.statement_lines import StatementLines
from memlint.analysis.syntax.tree import Tree
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
    "nested blocks": '''\
class A:
    """doc"""

    @property
    # between
    @other
    def f(self):
        if a:
            x = 1; y = 2
        elif b:
            # c
            z = 3
        elif c: pass
        else:
            if d:
                pass
        for i in r:
            pass
        else:
            w = 1
        while k:
            break
        try:
            t = 1
        except E as e:
            u = 2
        except F:

            v = 3
        else:
            s = 4
        finally:
            q = 5
        with m as n, o:
            p = (
                6)
        match p:
            case [1, 2]:
                r = 7
            case _:
                r = 8
        # footer

    async def g(self):
        async for a in b:
            await c
        async with d:
            return e
''',
    "try star": "try:\n    a = 1\nexcept* E:\n    b = 2\n",
    "indentation that changes by block": "if a:\n  if b:\n     c = 1\n  d = 2\nif e:\n        f = 3\n",
    "one-line bodies": "if a: b = 1\nelse: c = 2\nclass C: pass\ndef f(): return 1\n",
    # where `ast` cannot say (the `@` above its expression's line, a statement after a form feed):
    "decorator expression on the next line": "@(\nfoo)\ndef f(): pass\n",
    "form feed before a statement": "x = 1\n\fy = 2\n",
}


@pytest.mark.parametrize("name", SHAPES)
def test_first_lines_from_ast_equal_those_of_code_generation(name: str) -> None:
    text = SHAPES[name]
    module = parse_module(text)
    found = StatementLines(module, text, Tree(module).parent_of).top_level()
    if name in ("decorator expression on the next line", "form feed before a statement"):
        assert found is None
    else:
        assert found == statement_lines(module)


@pytest.mark.parametrize("known", [False, True], ids=["lines from the text", "top-level lines known"])
@pytest.mark.parametrize("case", [*SHAPES, *CASES[::20]], ids=lambda c: c if isinstance(c, str) else c.parent.name[:5] + "/" + c.name)
def test_ranges_equal_libcst_positions(case: str | Path, known: bool) -> None:
    """Every node's range equals LibCST's, asked one statement at a time (generation stops after
    the nodes asked about), then node by node in reverse (past where the first generation stopped).
    `known`: the top-level statements' first lines are given (as a language server's incremental
    parser gives them), and `ast` parses only the top-level statements asked about, each on its own."""
    text = SHAPES[case] if isinstance(case, str) else case.read_text()
    module = parse_module(text)
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    tree = Tree(module)
    assert StatementLines(module, text, tree.parent_of).top_level() in (statement_lines(module), None)
    positions = Positions(module, tree.parent_of, statement_lines(module) if known else None, text=text)
    nodes = sorted((n for same in tree.by_type.values() for n in same if n is not module), key=lambda n: tree.order[id(n)])
    if not nodes:
        return  # only comments
    first_half = positions.ranges(nodes[: len(nodes) // 2])
    assert first_half and all(expected[n] == r for n, r in first_half.items())
    for node in reversed(nodes):
        assert positions.range_of(node) == expected[node]


@pytest.mark.parametrize("known", [False, True], ids=["lines from the text", "top-level lines known"])
def test_statements_of_blocks_start_where_ast_says(known: bool) -> None:
    """Each statement of an indented block is generated from its own first line (not from its
    top-level statement's): `ast` knows them all in a module of every kind of block, parsed whole
    or (`known`: the top-level statements' first lines given) one top-level statement at a time."""
    text = SHAPES["nested blocks"]
    module = parse_module(text)
    tree = Tree(module)
    lines = StatementLines(module, text, tree.parent_of, first_lines=statement_lines(module) if known else None)
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(WhitespaceInclusivePositionProvider)
    checked = 0
    for block in tree.by_type[cst.IndentedBlock]:
        indent, above = "", block
        while above is not None:
            if isinstance(above, (cst.IndentedBlock, cst.Match)):
                indent = (module.default_indent if above.indent is None else above.indent) + indent
            above = tree.parent_of(above)
        for statement in block.body:
            assert lines.first_line(statement, indent) == expected[statement].start.line
            checked += 1
    assert checked == 28  # every statement of every block above
