"""The analyses' syntactic shortcuts answer exactly what the full questions answer.

Each shortcut skips work where syntax alone settles the answer: grad mode in a
file where nothing switches it, evaluation regions in a scope that neither
evaluates nor switches a model's mode, ML019's mentions of a model looked up by
the word their code ends in. Over every file of test_cases/, each is checked
against the question it stands for, asked the long way.
"""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from memlint.analysis import SemanticModel
from memlint.analysis.syntax.expressions import code
from memlint.rules.ml019_frozen_model_with_grad import FrozenModelWithGrad

CASES = sorted(p for p in (Path(__file__).resolve().parent.parent / "test_cases").rglob("*.py") if not p.name.endswith(".fixed.py"))




@pytest.mark.parametrize("path", CASES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_shortcuts_answer_what_the_long_way_answers(path: Path) -> None:
    module = cst.parse_module(path.read_text(encoding="utf-8"))
    model = SemanticModel(module, str(path))
    nodes = [*model.tree.by_type.get(cst.Call, ()), *model.tree.by_type.get(cst.Assign, ())]

    # grad mode: the shortcut's answers, then the walk's (the shortcut switched off on a fresh model)
    quick = [model.grad_state(node) for node in nodes]
    slow_model = SemanticModel(module, str(path))
    slow_model.grad.__dict__["_always_on"] = False
    slow_nodes = [*slow_model.tree.by_type.get(cst.Call, ()), *slow_model.tree.by_type.get(cst.Assign, ())]
    assert quick == [slow_model.grad_state(node) for node in slow_nodes]

    # evaluation regions: no region where the pre-check says none can be
    regions = model.eval_regions
    for call in model.tree.by_type.get(cst.Call, ()):
        if not regions.may_evaluate(model.scope_of(call)):
            regions._evaluating_scopes.add(id(model.scope_of(call)))  # ask region() the long way
            assert regions.region(call) is None, code(call)
            regions._evaluating_scopes.discard(id(model.scope_of(call)))

    # ML019: the mentions found through the last word are those of a table of every node's code
    if "ML019" not in path.parent.name and "ML003" not in path.parent.name:
        return  # (the rule's own cases, and the evaluation cases that put models in eval mode)
    rule = FrozenModelWithGrad(model, lambda rule, report: None)
    table: dict[str, list[cst.CSTNode]] = {}
    for kind in (cst.Name, cst.Attribute):
        for node in model.tree.by_type.get(kind, ()):
            table.setdefault(code(node), []).append(node)
    for name, nodes_written in table.items():
        assert rule._written_as(name) == nodes_written, name
