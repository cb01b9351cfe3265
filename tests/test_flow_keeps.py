"""Value flow into callees across files: a helper of another module stores what it is handed in
a container its caller passes in (`record(history, loss)`)."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

from test_project import lint, ml001_rows

HELPERS = """
def record(history, value):
    history.append({kept})
"""
STEP = """
from pkg.helpers import record


def train(model, optimizer, loader):
    history = []
    for x, y in loader:
        loss = model(x, y)
        loss.backward()
        optimizer.step()
        record(history, loss)
        parts = []
        record(parts, loss)
    return history
"""


def helper_project(tmp_path: Path, kept: str) -> Path:
    (tmp_path / "pkg").mkdir(exist_ok=True)
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "helpers.py").write_text(textwrap.dedent(HELPERS.format(kept=kept)))
    (tmp_path / "pkg" / "train.py").write_text(textwrap.dedent(STEP))
    return tmp_path


def test_helper_of_another_file_that_appends_to_the_callers_list(tmp_path: Path) -> None:
    """`record(history, loss)` with `history` made before the loop keeps every step's graph;
    `record(parts, loss)` with a list made afresh each step does not."""
    rows = ml001_rows(lint(helper_project(tmp_path, "value"), "--no-cache"))
    assert set(rows) == {11}
    assert "`record()`" in rows[11] and os.path.join("pkg", "helpers.py") in rows[11]


def test_helper_of_another_file_that_appends_a_number_is_silent(tmp_path: Path) -> None:
    assert ml001_rows(lint(helper_project(tmp_path, "value.item()"), "--no-cache")) == {}
