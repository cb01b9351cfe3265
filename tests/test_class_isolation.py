"""Each class of a file answers for itself: a finding of a bad test case stays when another class
of the same file has methods and attributes of the same names, used otherwise.

Every bad case of test_cases/ that defines methods gets a decoy class appended (its lines come after
the case's, so the case's rows stay): methods of the same names that return 0, called on the
decoy's own `self` under `torch.no_grad()` (or handed on as `self.name`), and attributes of the same
names set to 0. None of it is reachable from the case's own classes, so none of the case's findings
may vanish, and no new one may appear on the case's lines.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from memlint.engine import lint_bytes
from memlint.rules import ALL_RULES

CASES = Path(__file__).resolve().parent.parent / "test_cases"
CODES = [r.code for r in ALL_RULES] + ["ML000"]


def _names(text: str) -> tuple[list[str], list[str]]:
    """The case's method names (but dunders) and the attributes it sets or reads on `self`."""
    methods, attributes = set(), set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ClassDef):
            methods.update(
                s.name for s in node.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and not s.name.startswith("__")
            )
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
            attributes.add(node.attr)
    return sorted(methods), sorted(attributes - methods)


def _decoy(methods: list[str], attributes: list[str], use: str) -> str:
    lines = ["", "", "import torch as _decoy_torch", "", "", "class _Decoy:", "    def __init__(self):"]
    lines += [f"        self.{a} = 0" for a in attributes] + ["        pass"]
    for m in methods:
        lines += [f"    def {m}(self, *args, **kwargs):", "        return 0"]
    if use == "no_grad":
        lines += ["    @_decoy_torch.no_grad()", "    def _decoy_run(self):"] + [f"        self.{m}()" for m in methods]
    else:  # handed on: their callers are unknown
        lines += ["    def _decoy_run(self, register):"] + [f"        register(self.{m})" for m in methods]
    return "\n".join(lines) + "\n"


def _cases() -> list[Path]:
    return sorted(
        p
        for p in CASES.rglob("bad_*.py")
        if not p.name.endswith(".fixed.py") and not p.parent.name.startswith("project_") and _names(p.read_text(encoding="utf-8"))[0]
    )


def _findings(path: Path, text: str) -> set[tuple[int, str]]:
    return {(f.location.row, f.code) for f in lint_bytes(str(path), text.encode("utf-8"), CODES).findings}


@pytest.fixture(scope="module")
def cases() -> list[tuple[Path, str, set[tuple[int, str]]]]:
    """Each case with its text and its own findings, linted once for both decoys."""
    texts = {path: path.read_text(encoding="utf-8") for path in _cases()}
    return [(path, text, _findings(path, text)) for path, text in texts.items()]


@pytest.mark.parametrize("use", ["no_grad", "handed_on"])
def test_a_class_with_the_same_method_and_attribute_names_silences_nothing(
    cases: list[tuple[Path, str, set[tuple[int, str]]]], use: str
) -> None:
    changed = {}
    for path, text, before in cases:
        rows = len(text.rstrip("\n").splitlines())
        after = {f for f in _findings(path, text.rstrip("\n") + "\n" + _decoy(*_names(text), use)) if f[0] <= rows}
        if before != after:
            changed[f"{path.parent.name}/{path.name}"] = (sorted(before - after), sorted(after - before))
    assert not changed, changed
