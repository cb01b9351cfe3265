"""The language server's lint of changed statements only (server/statements.py): after every edit
of a sequence, the findings (positions and fixes included), errors and summary equal those of a
fresh lint of the same text, for every file of test_cases/ and for a file of a project."""

from __future__ import annotations

from pathlib import Path

import pytest

from memlint.analysis.questions import ANSWERS
from memlint.project_index import QUESTION_PARTS
from memlint.config import load_settings
from memlint.engine import lint_text
from memlint.project_index import ProjectIndex
from memlint.server.incremental import IncrementalParser

from samples import LEAKY_OPS, LEAKY_OPS_FIXED
from test_server import TRAIN_WITH_OPS

ROOT = Path(__file__).parent.parent
CASES = sorted(p for p in (ROOT / "test_cases").rglob("*.py") if ".fixed" not in p.name)
SETTINGS = load_settings(isolated=True)
GROUPS = 8  # the cases in this many tests, so that a failure names a small group


def edit_sequence(text: str) -> list[str]:
    """Texts an editor produces one after the other: each edit changes one place of the text
    before it, in different top-level statements, then an undo back to the start."""
    lines = text.splitlines(keepends=True)
    if not lines:
        return [text]
    texts = []
    third, middle = len(lines) // 3, len(lines) // 2
    lines = [*lines[:middle], "# a note\n", "\n", *lines[middle:]]  # moves the statements below
    texts.append("".join(lines))
    for index in range(len(lines) - 1, 0, -1):  # a statement near the end gains a line of its own indentation
        line = lines[index]
        if line.strip() and line.startswith((" ", "\t")) and not line.rstrip().endswith(("\\", ",", "(", "[", "{")):
            indent = line[: len(line) - len(line.lstrip())]
            lines.insert(index + 1, f"{indent}kept_value = computed(1)\n")
            texts.append("".join(lines))
            break
    for index in range(third, len(lines)):  # a line deleted: a change of meaning, or of syntax
        if lines[index].strip() and lines[index].startswith((" ", "\t")):
            del lines[index]
            texts.append("".join(lines))
            break
    texts.append(text)
    return texts


def assert_same_as_fresh(path: str, parser: IncrementalParser, text: str) -> None:
    through = lint_text(path, text, SETTINGS, parser=parser)
    fresh = lint_text(path, text, SETTINGS)
    assert through.findings == fresh.findings
    assert through.errors == fresh.errors
    # (the editor's lint records no questions for the project index, nor their answers)
    assert through.summary == {k: v for k, v in fresh.summary.items() if k not in (*QUESTION_PARTS, ANSWERS)}


@pytest.mark.parametrize("group", range(GROUPS))
def test_each_edit_lints_as_a_fresh_lint_of_its_text(group: int) -> None:
    for case in CASES[group::GROUPS]:
        original = case.read_text()
        parser = IncrementalParser()
        lint_text(str(case), original, SETTINGS, parser=parser)
        for number, text in enumerate(edit_sequence(original)):
            try:
                assert_same_as_fresh(str(case), parser, text)
            except AssertionError as exc:
                raise AssertionError(f"{case.relative_to(ROOT)}, edit {number}") from exc


def test_an_edit_relints_only_its_statement_and_moves_the_others_findings() -> None:
    blocks = [
        f"def train_{i}(model, loader, optimizer):\n    losses = []\n    for x, y in loader:\n"
        f"        loss = model(x, y)\n        loss.backward()\n        optimizer.step()\n"
        f"        losses.append({'loss' if i % 2 else 'loss.item()'})\n    return losses\n\n\n"
        for i in range(20)
    ]
    text = "import torch\n\n\n" + "".join(blocks)
    parser = IncrementalParser()
    first = lint_text("train.py", text, SETTINGS, parser=parser)
    assert parser.statements.linted == 21 and len(first.findings) == 10
    edited = text.replace("def train_4(model, loader, optimizer):\n", "def train_4(model, loader, optimizer):\n\n\n")
    edited = edited.replace("losses.append(loss.item())\n    return losses\n\n\ndef train_5", "losses.append(loss)\n    return losses\n\n\ndef train_5")
    assert_same_as_fresh("train.py", parser, edited)
    assert parser.statements.linted == 2 and parser.statements.reused == 19  # the import, train_4; the others kept
    assert len(lint_text("train.py", edited, SETTINGS, parser=parser).findings) == 11


def test_a_callee_edit_relints_its_callers() -> None:
    """A caller's findings rest on what its callee does with the value: the callee's edit relints both."""
    callee = "def record(value):\n    history.append(value)\n\n\n"
    caller = (
        "def train(model, loader):\n    for x in loader:\n        loss = model(x)\n        loss.backward()\n"
        "        record(loss)\n\n\n"
    )
    other = "def evaluate(model, x):\n    value = model(x)\n    return value.detach()\n\n\n"  # the edit's features
    text = "import torch\n\nhistory = []\n\n\n" + callee + caller + other
    parser = IncrementalParser()
    lint_text("train.py", text, SETTINGS, parser=parser)
    edited = text.replace("history.append(value)", "history.append(value.detach())")
    assert_same_as_fresh("train.py", parser, edited)
    assert parser.statements.reused == 1  # evaluate reads no name that record, train or the module's code bind
    assert_same_as_fresh("train.py", parser, text)


def test_a_file_wide_fact_relints_every_statement() -> None:
    """A check over the whole file (does it run as several processes?) changes with a statement
    elsewhere: the module's features change, so no statement keeps its findings."""
    text = (
        "import torch\nimport torch.distributed as dist\n\n\n"
        "def train(model, loader, optimizer):\n    for x in loader:\n        loss = model(x)\n"
        "        loss.backward()\n        optimizer.step()\n        torch.cuda.empty_cache()\n\n\n"
        "def setup():\n    pass\n"
    )
    parser = IncrementalParser()
    lint_text("train.py", text, SETTINGS, parser=parser)
    edited = text.replace("def setup():\n    pass\n", "def setup():\n    dist.init_process_group('nccl')\n")
    assert_same_as_fresh("train.py", parser, edited)
    assert parser.statements.reused == 0
    assert_same_as_fresh("train.py", parser, text)


def test_project_files_edited_in_the_server_adjust_as_a_fresh_run() -> None:
    """Two files of a project, each edited through the server's path, the summaries in the project
    index: the findings adjust as those of a fresh lint of both files do (here ML001 becomes an
    error naming the other file's Function that keeps tensors on `ctx`, and back)."""
    ops_path, train_path = "/project/pkg/ops.py", "/project/pkg/train.py"
    ops_texts = [LEAKY_OPS, LEAKY_OPS_FIXED, LEAKY_OPS]
    train_texts = [
        TRAIN_WITH_OPS,
        TRAIN_WITH_OPS + "\n\ndef evaluate(model, x):\n    return model(x)\n",
        TRAIN_WITH_OPS.replace("losses.append(loss)", "losses.append(loss.item())"),
        TRAIN_WITH_OPS,
    ]
    parsers = {ops_path: IncrementalParser(), train_path: IncrementalParser()}
    severities = []
    for ops, train in [(o, t) for o in ops_texts for t in train_texts]:
        through = {p: lint_text(p, text, SETTINGS, parser=parsers[p]) for p, text in ((ops_path, ops), (train_path, train))}
        fresh = {p: lint_text(p, text, SETTINGS) for p, text in ((ops_path, ops), (train_path, train))}
        index = ProjectIndex({p: r.summary for p, r in through.items()}, Path("/project"))
        fresh_index = ProjectIndex({p: r.summary for p, r in fresh.items()}, Path("/project"))
        adjusted = index.adjust(through[train_path].findings)
        assert adjusted == fresh_index.adjust(fresh[train_path].findings)
        severities.extend(f.severity.value for f in adjusted)
    assert {"error", "warning"} <= set(severities)
