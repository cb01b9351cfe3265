"""Light trees (memlint/analysis/syntax/light.py) are LibCST's trees, less whitespace, or None.

Every file of test_cases/, tests/data/fp_repros/ and memlint's own source, and snippets of each
construct whose LibCST shape `ast` does not give directly, must translate to a tree equal to
`libcst.parse_module`'s under benchmarks/light_compare.py, with spans equal to PositionProvider's.
"""

from __future__ import annotations

import ast
import sys
import textwrap
from pathlib import Path

import libcst as cst
import pytest
from samples import FP_REPROS

from memlint.analysis.syntax.light import light_module

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from light_compare import span_mismatches, tree_mismatch  # noqa: E402


def _folders(*roots: Path) -> list[Path]:
    """The folders holding the files to check: each subfolder of `roots` (one test each: a test
    per file would cost pytest more than the checks)."""
    return sorted({path.parent for root in roots if root.is_dir() for path in root.rglob("*.py")})


def _check(text: str, complete: bool = True) -> None:
    """The light tree of `text` exists and equals LibCST's; when `complete`, it also has
    PositionProvider's spans and code that is the same program."""
    tree = ast.parse(text)
    light = light_module(tree, text)
    assert light is not None
    parsed = cst.parse_module(text)
    assert tree_mismatch(light.module, parsed) is None
    if not complete:
        return
    checked, equal, differences = span_mismatches(light.module, light.spans, parsed)
    assert differences == [] and checked == equal
    # The normalized code of a light tree is the same program.
    assert ast.dump(ast.parse(light.module.code)) == ast.dump(tree)


def _check_folder(folder: Path, complete: bool) -> None:
    failed = []
    for path in sorted(folder.glob("*.py")):
        try:
            _check(path.read_text(encoding="utf-8"), complete)
        except AssertionError as error:
            failed.append(f"{path.name}: {str(error).splitlines()[0]}")
    assert failed == []


@pytest.mark.parametrize(
    "folder", _folders(ROOT / "test_cases", FP_REPROS), ids=lambda path: path.name
)
def test_files_translate_to_libcst_trees(folder: Path) -> None:
    _check_folder(folder, complete=True)


@pytest.mark.parametrize("folder", _folders(ROOT / "memlint"), ids=lambda path: str(path.relative_to(ROOT)))
def test_memlint_source_translates_to_libcst_trees(folder: Path) -> None:
    """Spans left out here: PositionProvider costs five parses (they are checked over all of
    memlint/ by benchmarks/light_tree.py)."""
    _check_folder(folder, complete=False)


SNIPPETS = {
    "parentheses": """
        x = ((a)) + (b)
        f((a))
        f((a),)
        f(a, (b))
        y = (a, b)
        z = ((a, b))
        w = (a), (b)
        t = ()
        u = (1,)
        v = 1,
        print((yield))
        q = [(a) for (b) in (c) if (d)]
        (a).b = (c)
        del (a), b
        r = (  # comment (
            a
        )
        s = (
            # a comment with ( and "quotes"
            b
        )
        k = ("#(", (a))
    """,
    "generators": """
        f(x for x in y)
        f((x for x in y))
        g = (x for x in y if x)
        h = sum(
            x for x in y
        )
        any((a) for a in b)
    """,
    "elif": """
        if a:
            pass
        elif b:
            pass
        else:
            if c:
                pass
            else:
                pass
        if a: pass
        else:
            if b: pass
    """,
    "statement lines": """
        a = 1; b = 2
        c = 3;
        if x: return_value = 1; other = 2
        while y: break
        for i in z: continue
        class A: pass
        def f(): return
    """,
    "f-strings": """
        a = f"{x!r:>{width}} {y=} {z['k']} {{literal}} {(w)}"
        b = f'{x["k"]:{"d"}}' f"tail" "plain"
        c = (f"{a}"
             f"{b.c}"
             "d")
        d = rb"raw" b"bytes"
        e = f\"\"\"
        {x}
        \"\"\"
    """,
    "decorators": """
        @dec
        @dec.attr(1, k=2)
        @(lambda f: f)
        async def f(a, /, b: int = 1, *args: int, c, d=(2), **kw) -> "X":
            await a
            async for x in y:
                pass
            async with a as b, c:
                pass
        @dataclass
        class A(B, metaclass=M, **kw):
            x: int = 1
            y: int
    """,
    "imports": """
        import a
        import a.b.c as d, e
        from . import x
        from .. import (y as z, w,)
        from ...pkg.sub import *
        from .mod import name
    """,
    "star arguments and lambdas": """
        f(*a, **b)
        f(a, *b, c=1, **d)
        f(c=1, *b)
        g = lambda: 0
        h = lambda x, y=1, *a, z=2, **k: x
        i = lambda *, k: k
        def m(*, k=1): pass
        def n(a, b=2, /, c=3): pass
    """,
    "walrus and comprehensions": """
        if (n := len(a)) > 10:
            pass
        [y for x in data if (y := f(x))]
        {k: v for k, v in items for _ in range(2) if k if v}
        {a for a in b}
        [x async for x in aiter()]
    """,
    "operators": """
        x = a and b and c or d
        y = not a < b <= c is not d not in e
        z = -a ** ~b // c @ d % e << f >> g | h & i ^ j
        x += 1; x -= 1; x *= 1; x @= 1; x /= 1; x //= 1; x %= 1; x **= 1
        x <<= 1; x >>= 1; x &= 1; x |= 1; x ^= 1
        w = a if b else c
        s = a[1:2, ::3, 4][...][:]
        v = a[(1, 2)]
        u = a[1,]
    """,
    "statements": """
        global g1, g2
        def f():
            nonlocal_value = 1
            def g():
                nonlocal nonlocal_value
            assert x, "message"
            raise ValueError("x") from None
        try:
            pass
        except (A, B) as e:
            pass
        except C:
            pass
        else:
            pass
        finally:
            pass
        try:
            pass
        except* E as group:
            pass
        while x:
            pass
        else:
            pass
        with (a, b):
            pass
        with (a):
            pass
        with (a) as b, (c):
            pass
        with (open(x) as f, open(y) as g):
            pass
        x = 1_000 + 0x1F + 1.5e3 + 2j + True + None + ...
    """,
    "match": """
        match x:
            case [a, *rest] | (b, c) | d, e:
                pass
            case {"k": v, **kw}:
                pass
            case Point(1, y=(2)) as p if p:
                pass
            case ((1)) | () | None | (True) | -1 | a.b:
                pass
            case [*_, (a)] | {} | (x as y):
                pass
            case _:
                pass
        match a, b:
            case (x, y) if (x):
                pass
    """,
    "non-ascii": """
        naïve = "é" + f"{naïve}"; café = naïve
        print("ü", (x), [y])
        d = {"ключ": значение}
    """,
}


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_snippets(name: str) -> None:
    _check(textwrap.dedent(SNIPPETS[name]).lstrip())


@pytest.mark.parametrize(
    "text",
    [
        "x = 1\n\x0cy = 2\n",  # LibCST counts columns from a form feed
    ],
)
def test_untranslated_returns_none(text: str) -> None:
    assert light_module(ast.parse(text), text) is None


def test_misplaced_fstring_expressions_are_not_translated() -> None:
    """Python 3.11 places a tuple in an f-string one column early (3.12 does not): None, not a wrong tree."""
    text = 'x = f"{a, b}"\n'
    light = light_module(ast.parse(text), text)
    if sys.version_info < (3, 12):
        assert light is None
    else:
        assert light is not None and tree_mismatch(light.module, cst.parse_module(text)) is None


def test_nodes_work_with_libcst() -> None:
    text = "def f(a, b=1):\n    return g(a)[b]\n"
    light = light_module(ast.parse(text), text)
    assert light is not None
    module = light.module
    assert module.deep_equals(light_module(ast.parse(text), text).module)  # type: ignore[union-attr]
    function = module.body[0]
    renamed = function.with_changes(name=cst.Name("h"))
    assert module.code_for_node(renamed).startswith("def h(a, b = 1):")
    names = []

    class Names(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            names.append(node.value)

    module.visit(Names())
    assert names == ["f", "a", "b", "g", "a", "b"]


def test_memlint_tree_walks_light_trees_like_libcst_trees() -> None:
    """memlint's Tree (parents, source order, subtree ends, by type) over a light tree: the same
    nodes in the same order as over LibCST's, each node once (no shared node in a walked field)."""
    from memlint.analysis.syntax.tree import Tree

    text = "\n".join(textwrap.dedent(snippet).lstrip() for snippet in SNIPPETS.values())
    light = light_module(ast.parse(text), text)
    assert light is not None
    trees = Tree(light.module), Tree(cst.parse_module(text))
    shapes = []
    for tree in trees:
        nodes = sorted((node for nodes in tree.by_type.values() for node in nodes), key=lambda n: tree.order[id(n)])
        assert len(nodes) == len(tree.order)
        parents = [type(tree.parent_of(node)).__name__ for node in nodes]
        ends = [tree.end[id(node)] for node in nodes]
        shapes.append(([type(node).__name__ for node in nodes], parents, ends))
    assert shapes[0] == shapes[1]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "# only a comment\n",
        "x = (a,\r\n     b)\r\nif x:\r\n    f(\r\n        # c (\r\n        y)\r\n",
        "x = 1",
        "if a:\n\tb = (c)\n\tf(\n\t\t(d))\n",
        "x = a + \\\n    (b)\ny = 2\n",
        '"""module doc"""\nfrom __future__ import annotations\n',
    ],
    ids=["empty", "comment", "crlf", "no newline", "tabs", "continuation", "docstring"],
)
def test_texts(text: str) -> None:
    _check(text)


@pytest.mark.parametrize(
    "text, end",
    [
        ('f"{d["k"]:>{w}} {x!r}" + 1', 22),  # Python 3.12's nested quotes (PEP 701)
        ("f'{a}' 'b'", 6),
        ('f"""{"x"}\n{{}}""" ', 17),
    ],
)
def test_fstring_end_skips_replacement_fields(text: str, end: int) -> None:
    from memlint.analysis.syntax.light_source import fstring_end

    assert fstring_end(text, 1, len(text)) == end
