"""Decide with `ast` whether a file needs analysing at all: its rules' needles as code, not as text.

The pre-check in engine.py looks for each rule's needles (and the project summary's) as
substrings of the whole text: a word in a comment or a docstring ("Runs the model for one
epoch", "# see torch.cuda") makes the file pay a tree and the analysis. The file's `ast`
(which the engine parses anyway, for the light tree) says where each needle really is:

* a word needle (`zero_grad`, `cuda`, `Trainer`) in a name, an attribute (alone and as the
  dotted chain it ends: `torch.utils.checkpoint`), a function, class, parameter or keyword
  name, an import (`from torch.utils import checkpoint`) or a string that is not a bare
  string statement (a docstring);
* a needle that stands for a statement or a call (`for `, `while `, `+=`, `] =`, `eval()`,
  `train(False)`, `.apply(`) in that construct: a loop or comprehension, a `while`, an
  augmented addition, a store into a subscript, a call of `.eval()` without arguments, of
  `.train(...)`, of `.apply(...)` -- or in a string, as text.

A file whose code holds no needle of any rule that the text pre-check let through, and none
of the summary's, is only checked for syntax (by that same `ast.parse`). Files with a loop
statement at the start of a line, which nearly always is code and satisfies the loop rules'
needles, are analysed without walking the `ast` for needles (it would only cost). tests/test_screen.py checks on
test_cases/ and the false-positive repros that findings and fixes are those without the screen;
bench.py --digest and corpus_findings.py --findings check it on real libraries.
"""

from __future__ import annotations

import ast
import os
import re
from typing import TYPE_CHECKING, Iterable

from memlint.parsing import python_ast

if TYPE_CHECKING:
    from memlint.rules.base import Rule

# MEMLINT_NO_SCREEN=1 gives every file the text pre-check only (to compare, or rule the screen out).
ENABLED = os.environ.get("MEMLINT_NO_SCREEN", "") in ("", "0")

# A `for` or `while` statement opening a line: the file has a loop (a docstring's example aside).
_LOOP_STATEMENT = re.compile(r"^[ \t]*(?:async[ \t]+)?(?:for|while)\b", re.MULTILINE)

# Needles that stand for a construct rather than a word.
_FOR, _WHILE, _AUG_ADD, _SUBSCRIPT_STORE, _EVAL_CALL, _TRAIN_CALL, _APPLY_CALL = (
    "for ", "while ", "+=", "] =", "eval()", "train(False)", ".apply(",
)
CONSTRUCT_NEEDLES = frozenset({_FOR, _WHILE, _AUG_ADD, _SUBSCRIPT_STORE, _EVAL_CALL, _TRAIN_CALL, _APPLY_CALL})
# The node kinds that can stand for one (`construct_needles`).
CONSTRUCT_KINDS = frozenset({ast.Call, ast.For, ast.AsyncFor, ast.comprehension, ast.While, ast.AugAssign, ast.Subscript})


def construct_needles(node: ast.AST) -> tuple[str, ...]:
    """The construct needles `node` stands for: a loop or comprehension, a `while`, an augmented
    addition, a store into a subscript, a call of `.eval()` without arguments, of `.train(...)`,
    of `.apply(...)`."""
    kind = type(node)
    if kind is ast.Call:
        func = node.func  # type: ignore[attr-defined]
        name = func.attr if type(func) is ast.Attribute else func.id if type(func) is ast.Name else ""
        if name.endswith("eval") and not node.args and not node.keywords:  # type: ignore[attr-defined]
            return (_EVAL_CALL,)
        if name.endswith("train"):
            return (_TRAIN_CALL,)
        return (_APPLY_CALL,) if name == "apply" and type(func) is ast.Attribute else ()
    if kind is ast.For or kind is ast.AsyncFor or kind is ast.comprehension:
        return (_FOR,)
    if kind is ast.While:
        return (_WHILE,)
    if kind is ast.AugAssign:
        added = (_AUG_ADD,) if type(node.op) is ast.Add else ()  # type: ignore[attr-defined]
        return added + (_SUBSCRIPT_STORE,) if type(node.target) is ast.Subscript else added  # type: ignore[attr-defined]
    if kind is ast.Subscript and type(node.ctx) is ast.Store:  # type: ignore[attr-defined]
        return (_SUBSCRIPT_STORE,)
    return ()


class _Code:
    """The words and constructs of a module's code (comments and docstrings left out)."""

    def __init__(self, tree: ast.Module) -> None:
        words: list[str] = []
        markers: set[str] = set()
        add = words.append
        bare: set[int] = set()  # string constants that are statements of their own: docstrings
        for node in ast.walk(tree):
            kind = type(node)
            if kind is ast.Name:
                add(node.id)
            elif kind is ast.Attribute:
                add(node.attr)
                dotted = _dotted(node)
                if dotted is not None:
                    add(dotted)
            elif kind is ast.Constant:
                if isinstance(node.value, str) and id(node) not in bare:
                    add(node.value)
            elif kind is ast.Expr:
                if type(node.value) is ast.Constant:
                    bare.add(id(node.value))
            elif kind in CONSTRUCT_KINDS:
                markers.update(construct_needles(node))
            elif kind in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
                add(node.name)
            elif kind is ast.arg:
                add(node.arg)
            elif kind is ast.keyword:
                if node.arg:
                    add(node.arg)
            elif kind is ast.Import:
                for alias in node.names:
                    add(f"import {alias.name}")
                    if alias.asname:
                        add(alias.asname)
            elif kind is ast.ImportFrom:
                module = "." * node.level + (node.module or "")
                for alias in node.names:
                    add(f"from {module} import {alias.name}")
                    add(f"{module}.{alias.name}")
                    if alias.asname:
                        add(alias.asname)
        # one string: a needle never spans the separator, so `in` finds it within one word
        self.text = "\0".join(words)
        self.markers = markers

    def has(self, needle: str) -> bool:
        return needle in self.markers or needle in self.text


def _dotted(node: ast.Attribute) -> str | None:
    """`a.b.c` for an attribute chain on a name, else None."""
    parts = [node.attr]
    value = node.value
    while type(value) is ast.Attribute:
        parts.append(value.attr)
        value = value.value
    if type(value) is not ast.Name:
        return None
    parts.append(value.id)
    return ".".join(reversed(parts))


def needs_tree(
    text: str, rules: Iterable[type["Rule"]], summary_needles: Iterable[str], tree: ast.Module | None = None
) -> bool:
    """Can any of `rules` (those whose needles the text holds) or the project summary need this
    file's tree? False only when the file parses and its code holds none of their needles
    (its syntax is then checked: no syntax error to report). `tree`: `text`'s ast, where the
    caller has it."""
    if not ENABLED or _LOOP_STATEMENT.search(text):
        return True
    if tree is None:
        try:
            tree = python_ast(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return True  # reported as LibCST reports it
    code = _Code(tree)
    if any(code.has(needle) for needle in summary_needles):
        return True
    return any(all(any(code.has(n) for n in group) for group in rule.needles) for rule in rules)
