"""The engine analyses a light tree (analysis/syntax/light.py: LibCST's node classes built from
`ast`) before it parses a file with LibCST: the light analysis must report what the LibCST one
reports, node for node, and summarize the file for the project index identically; only then is a
file without reports done without LibCST's parse."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import libcst as cst
import pytest
from samples import FP_REPROS

from memlint import engine
from memlint.analysis import SemanticModel
from memlint.analysis.project import summarize
from memlint.analysis.syntax.light import light_module
from memlint.analysis.syntax.as_written import as_written
from memlint.analysis.syntax.tree import iter_children
from memlint.budget import Guard
from memlint.engine import lint_source
from memlint.parsing import parse_module, python_ast
from memlint.rules import ALL_RULES

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted([*(ROOT / "test_cases").rglob("*.py"), *FP_REPROS.glob("*.py")])
CODES = [r.code for r in ALL_RULES]


def _preorder(module: cst.Module) -> dict[int, int]:
    """id(node) -> its place in a pre-order walk of the nodes analyses see (whitespace and
    punctuation left out): the same place for the same node of two equal trees."""
    places: dict[int, int] = {}
    stack: list[cst.CSTNode] = [module]
    place = 0
    while stack:
        node = stack.pop()
        if isinstance(node, (cst.TrailingWhitespace, cst.Comment, cst.Newline)):
            continue  # a light tree has no comments, and shares its default whitespace
        places[id(node)] = place
        place += 1
        stack.extend(reversed(list(iter_children(node))))
    return places


def _analysis(model: SemanticModel, path: str) -> tuple[str, list[tuple[str, int, str]], bool]:
    """The file's summary (as the index stores it), its reports (rule, node, message) and whether any rule failed."""
    with Guard().active() as guard:
        summary = json.dumps(summarize(model), sort_keys=True, default=str)
        reports, errors = engine.dispatch_rules(model, path, ALL_RULES, guard)
    places = _preorder(model.module)
    found = sorted((rule.code, places[id(report.node)], report.message) for rule, report in reports)
    return summary, found, bool(errors)


def _both(path: Path) -> tuple[tuple, tuple] | None:
    text = engine.read_source(str(path)).text
    light = light_module(python_ast(text), text)
    if light is None:
        return None
    full = _analysis(SemanticModel(parse_module(text), str(path), None, None, text), str(path))
    with as_written(text, light.spans):
        lighter = _analysis(SemanticModel(light.module, str(path), None, None, text, light.spans), str(path))
    return full, lighter


def test_light_analysis_is_the_libcst_analysis() -> None:
    """Every file of test_cases/ and of the false-positive repros (nearly all translated): the
    same summary, the same reports on the same nodes with the same messages."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, engine.RECURSION_LIMIT))
    try:
        results = {str(path.relative_to(ROOT.parent)): _both(path) for path in FILES}
    finally:
        sys.setrecursionlimit(limit)
    translated = {name: pair for name, pair in results.items() if pair is not None}
    assert len(FILES) > 600 and len(translated) >= 0.98 * len(FILES)
    different = {name: pair for name, pair in translated.items() if pair[0] != pair[1]}
    assert not different
    assert sum(1 for full, _ in translated.values() if full[1]) > 250  # bad cases among them


def test_a_file_without_reports_is_not_parsed_by_libcst(monkeypatch: pytest.MonkeyPatch) -> None:
    """Clean code with every rule's needles: linted without LibCST's parser; its summary kept."""
    text = (
        "import torch\n\nlosses = []\nfor batch in loader:\n    loss = model(batch).sum()\n"
        "    loss.backward()\n    losses.append(loss.item())\n"
    )

    def refuse(text: str) -> cst.Module:
        raise AssertionError("parsed with LibCST")

    monkeypatch.setattr(engine, "parse_module", refuse)
    findings, errors = lint_source(text, "clean.py", CODES)
    assert findings == [] and errors == []


def test_a_file_with_findings_gets_libcst_messages_and_fixes() -> None:
    """Findings come from LibCST's tree: exact text in messages and fix edits as with the light trees off."""
    text = "import torch\n\nlosses = []\nfor batch in loader:\n    loss = model( batch ).sum()\n    loss.backward()\n    losses.append(loss)\n"
    light_findings, _ = lint_source(text, "train.py", CODES)
    engine.LIGHT_TREES = False
    try:
        full_findings, _ = lint_source(text, "train.py", CODES)
    finally:
        engine.LIGHT_TREES = True
    assert light_findings and light_findings == full_findings
    assert any(f.fix is not None for f in light_findings)


@pytest.mark.parametrize("failure", [None, AssertionError("a translator bug")])
def test_a_file_the_translator_refuses_or_fails_on_is_linted_on_libcst(
    monkeypatch: pytest.MonkeyPatch, failure: Exception | None
) -> None:
    """No light tree (None: a construct not translated; or a bug in the translator): the file's
    findings are LibCST's, no error is reported."""
    text = "losses = []\nfor batch in loader:\n    loss = model(batch).sum()\n    loss.backward()\n    losses.append(loss)\n"
    expected, _ = lint_source(text, "train.py", CODES)

    def translate(tree: object, text: str) -> None:
        if failure is not None:
            raise failure

    monkeypatch.setattr(engine, "light_module", translate)
    findings, errors = lint_source(text, "train.py", CODES)
    assert findings == expected and [f.code for f in findings] == ["ML001"] and errors == []
