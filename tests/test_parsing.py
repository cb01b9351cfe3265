"""memlint/parsing.py skips LibCST's per-node validation while parsing, and only then.

These tests pin the LibCST internals that relies on, so that an upgrade which
changes them fails here instead of silently validating again (slow) or not
validating the nodes fixes build (unsafe).
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import os
import subprocess
import sys
import textwrap
import threading
import warnings
from pathlib import Path

import libcst as cst
import pytest
from libcst._nodes.base import CSTNode, CSTValidationError

from memlint import parsing

CASES = Path(__file__).resolve().parent.parent / "test_cases"


def _node_classes() -> list[type]:
    found, stack = [], [CSTNode]
    while stack:
        cls = stack.pop()
        found.append(cls)
        stack.extend(cls.__subclasses__())
    return found


def test_libcst_validates_in_post_init_only() -> None:
    """LibCST's `__post_init__` does nothing but `self._validate()`, which is what memlint's replaces."""
    source = textwrap.dedent(inspect.getsource(parsing._validating_post_init))
    body = ast.parse(source).body[0].body  # type: ignore[attr-defined]
    calls = [s for s in body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    assert [ast.unparse(s) for s in calls] == ["self._validate()"]


def test_no_node_class_has_its_own_post_init() -> None:
    """Every node reaches `CSTNode.__post_init__` (a class of its own would bypass the switch)."""
    own = [cls.__name__ for cls in _node_classes() if cls is not CSTNode and "__post_init__" in vars(cls)]
    assert own == []
    assert CSTNode.__post_init__ is parsing._post_init


def test_parser_builds_nodes_through_their_constructors() -> None:
    """The native parser calls each node's dataclass `__init__`, so `__post_init__` runs per node."""
    assert dataclasses.is_dataclass(cst.Name)
    seen: list[str] = []
    original = cst.Name._validate
    try:
        cst.Name._validate = lambda self: seen.append(self.value)  # type: ignore[method-assign]
        cst.parse_module("a = b\n")
        assert seen == ["a", "b"]  # validated by a plain parse
        seen.clear()
        parsing.parse_module("a = b\n")
        assert seen == []  # not by memlint's
    finally:
        cst.Name._validate = original  # type: ignore[method-assign]


def test_nodes_built_outside_a_parse_are_still_validated() -> None:
    with pytest.raises(CSTValidationError):
        cst.Name("")
    parsing.parse_module("x = 1\n")
    with pytest.raises(CSTValidationError):
        cst.Name("")  # after a parse, in the same thread


def test_other_threads_validate_while_one_parses() -> None:
    """The language server parses in one thread while another may build a fix's nodes."""
    errors: list[BaseException] = []

    def build() -> None:
        try:
            cst.Name("")
        except CSTValidationError as exc:
            errors.append(exc)

    parsing._parsing.add(threading.get_ident())  # this thread is inside a parse meanwhile
    try:
        worker = threading.Thread(target=build)
        worker.start()
        worker.join(10)
        cst.Name("")  # this one is not validated: the parse's own nodes are trusted
    finally:
        parsing._parsing.discard(threading.get_ident())
    assert len(errors) == 1


def test_parse_without_validation_builds_the_same_tree() -> None:
    for path in sorted(CASES.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        try:
            expected = cst.parse_module(text)
        except cst.ParserSyntaxError:
            with pytest.raises(cst.ParserSyntaxError):
                parsing.parse_module(text)
            continue
        assert parsing.parse_module(text).deep_equals(expected), path


def test_node_classes_the_analysis_matches_exactly_have_no_subclasses() -> None:
    """The analysis compares `type(node) is ...` in hot loops, for speed: right only while
    LibCST's node classes stay leaves."""
    for cls in (cst.Attribute, cst.Name, cst.FunctionDef, cst.ClassDef, cst.Lambda, cst.For, cst.While):
        assert cls.__subclasses__() == [], cls


def test_python_ast_prints_no_warning_for_the_users_code() -> None:
    """`"\\d"` is a SyntaxWarning that Python 3.12+ prints: the user's to fix, not memlint's to print."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert parsing.python_ast('import re\nre.match("\\d+", s)\n').body


def test_a_lint_prints_no_syntax_warning(tmp_path) -> None:
    source = tmp_path / "train.py"
    source.write_text(
        'import re\nlosses = []\nfor x in loader:\n    loss = model(x).sum()\n    loss.backward()\n'
        '    losses.append(loss)\n    re.match("\\d+", "1")\n'
    )
    done = subprocess.run(
        [sys.executable, "-W", "always", "-m", "memlint", "--no-cache", "-q", str(source)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])},
    )
    assert done.returncode == 1, done.stderr  # the kept loss is found
    assert "Warning" not in done.stderr
