"""The light rule catalog (codes, names, where each class lives) agrees with the rule classes,
and a run whose files all hit the cache imports neither LibCST nor the rules."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from memlint.rules import ALL_RULES, FILE_PROBLEMS
from memlint.rules.catalog import (
    FILE_CODES,
    OPT_IN_CODES,
    RULES,
    SYNTAX_ERROR,
    UNREADABLE,
    UNUSED_NOQA,
    file_problem_code,
    rule_code,
)

RULES_DIR = Path(__file__).resolve().parent.parent / "memlint" / "rules"


def test_catalog_matches_the_rule_classes() -> None:
    assert [(r.code, r.name, r.__module__.rsplit(".", 1)[1], r.__name__) for r in ALL_RULES] == list(RULES)
    assert sorted(p.stem for p in RULES_DIR.glob("ml[0-9]*.py")) == sorted(module for *_, module, _ in RULES)
    assert [(p.code, p.name) for p in FILE_PROBLEMS] == [SYNTAX_ERROR, UNREADABLE, UNUSED_NOQA]
    assert FILE_CODES | OPT_IN_CODES == {p.code for p in FILE_PROBLEMS}


def test_selectors_by_code_or_name() -> None:
    assert rule_code("ml001") == rule_code("Retained-Graph") == "ML001"
    assert rule_code("ML000") is None and rule_code("nope") is None
    assert file_problem_code("syntax-error") == file_problem_code("ml000") == "ML000"
    assert file_problem_code("unused-noqa") == file_problem_code("ml100") == "ML100"
    assert file_problem_code("ML001") is None


def test_warm_run_imports_no_libcst(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.memlint]\n")
    (tmp_path / "train.py").write_text(
        "import torch\n\n\ndef train(model, loader, optimizer):\n    losses = []\n    for x, y in loader:\n"
        "        loss = model(x).sum()\n        loss.backward()\n        optimizer.step()\n        losses.append(loss)\n"
    )
    probe = (
        "import sys, runpy\n"
        "sys.argv = ['memlint', 'lint', '-q', '--exit-zero', '--cache-dir', sys.argv[1], sys.argv[2]]\n"
        "try:\n"
        "    runpy.run_module('memlint', run_name='__main__')\n"
        "except SystemExit:\n"
        "    pass\n"
        "print('LIBCST' if 'libcst' in sys.modules else 'NO-LIBCST', 'RULES' if 'memlint.rules.base' in sys.modules else 'NO-RULES')\n"
    )
    command = [sys.executable, "-c", probe, str(tmp_path / "cache"), str(tmp_path)]
    cold = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, check=True)
    assert cold.stdout.strip().endswith("LIBCST RULES"), cold.stdout + cold.stderr
    warm = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, check=True)
    assert warm.stdout.strip().endswith("NO-LIBCST NO-RULES"), warm.stdout + warm.stderr
    assert "ML001" in cold.stdout
    assert warm.stdout.splitlines()[:-1] == cold.stdout.splitlines()[:-1]  # the same findings, from the cache
