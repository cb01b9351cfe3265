"""The false positives reduced from real libraries (tests/data/fp_repros) stay fixed.

Each file is named for the rule that reported it falsely (`fp12_ML001.py`), and must produce
no finding of that rule, except where the file itself says a line is a real finding (fp58's
normal branch), and fp18, whose finding was right but whose message was not ("never
backwarded", though backward runs under `if not forward_only:`). Every rule with a repro is
covered: the value-flow engine's (ML001, ML003, ML005, ML006) and ML004 (start-up and
comparison code that empties the cache once), ML007 (an RNG state, a size, a handler object on
`ctx`), ML011 (loads of files the code saved from the CPU) and ML015 (a scaler behind a flag
set from the dtype). Their real-leak twins are bad cases in test_cases/.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from samples import FP_REPROS

from memlint.engine import lint_path

RULES = ("ML001", "ML003", "ML004", "ML005", "ML006", "ML007", "ML011", "ML015")
# file -> rows where the file's own comment says the finding is real
REAL_ROWS = {"fp58_ML005.py": {20}}
WRONG_MESSAGE = {"fp18_ML001.py": "never backwarded", "fp66_ML001.py": "never backwarded"}


def repro_files() -> list[Path]:
    return sorted(p for p in FP_REPROS.glob("fp*_ML*.py") if p.stem.rsplit("_", 1)[1] in RULES)


def test_repros_are_present() -> None:
    assert len(repro_files()) == 28


@pytest.mark.parametrize("path", repro_files(), ids=lambda p: p.name)
def test_repro_has_no_false_finding(path: Path) -> None:
    rule = path.stem.rsplit("_", 1)[1]
    result = lint_path(str(path), [rule])
    assert not result.errors, result.errors
    findings = [f for f in result.findings if f.code == rule]
    if path.name in WRONG_MESSAGE:
        assert findings, f"{path.name}: the finding itself is true and must stay"
        for finding in findings:
            assert WRONG_MESSAGE[path.name] not in finding.message, finding.message
        return
    false = [f for f in findings if f.location.row not in REAL_ROWS.get(path.name, set())]
    assert not false, "\n".join(f"{path.name}:{f.location.row}: {f.code} {f.message}" for f in false)
    assert {f.location.row for f in findings} == REAL_ROWS.get(path.name, set())
