"""Jupyter notebooks: the joined program, positions in cells, every format, fixes written back byte for byte."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from memlint.engine import lint_path
from memlint.notebook import NotebookError, join_cells, mask_cell, parse_notebook, read_notebook

HERE = Path(__file__).resolve().parent
TRAIN = HERE / "notebooks" / "train.ipynb"
ALL = ["ML000", "ML001", "ML002", "ML003", "ML004", "ML005", "ML006", "ML007", "ML008", "ML009", "ML010"]


def memlint(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "memlint", "--no-cache", *args], cwd=cwd, capture_output=True, text=True, check=False
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copy(TRAIN, tmp_path / "train.ipynb")
    return tmp_path


# --------------------------------------------------------------------------- masking IPython syntax


@pytest.mark.parametrize(
    "line",
    ["%matplotlib inline", "!pip install -q torch", "model?", "torch.nn.Linear??", "?model", "files = !ls",
     "t = %timeit -o f()", "%time out = model(x)"],
)
def test_magics_are_masked_in_place(line: str) -> None:
    masked, masks = mask_cell(f"import torch\n{line}\nx = 1\n")
    first, second, third = masked.splitlines()
    assert (first, third) == ("import torch", "x = 1")
    assert len(second) == len(line) and second != line
    compile(masked, "<cell>", "exec")
    assert [m.original for m in masks] == [line]


def test_a_magic_inside_a_block_still_parses() -> None:
    masked, _ = mask_cell("for x in loader:\n    !echo step\n")
    compile(masked, "<cell>", "exec")
    assert masked.splitlines()[1].startswith("    0#")


@pytest.mark.parametrize(
    "code",
    ['doc = """\n!important\n%d items\n"""\n', "total = (a\n % b)\n", "if x != y:\n    pass\n", "value = a % b\n"],
)
def test_python_that_looks_like_a_magic_is_left_alone(code: str) -> None:
    assert mask_cell(code) == (code, ())


def test_cell_magics_python_body_kept_other_bodies_commented() -> None:
    timed, _ = mask_cell("%%time\nloss = model(x)\n")
    assert timed.splitlines()[1] == "loss = model(x)"
    shell, _ = mask_cell("%%bash\nfor f in *; do\n  echo $f\ndone\n")
    compile(shell, "<cell>", "exec")
    assert all(line.lstrip().startswith("#") for line in shell.splitlines())


# --------------------------------------------------------------------------- the joined program


def test_join_locates_rows_in_cells_and_splits_back() -> None:
    joined = join_cells(["import torch\nx = 1", "", "%time y = 2\nz = 3\n"], numbers=[2, 4, 7])
    lines = joined.text.splitlines()
    assert lines[joined.row(7, 2) - 1] == "z = 3"
    assert joined.locate(joined.row(7, 2)) == (7, 2)
    assert joined.locate(2) == (2, 2)
    assert joined.split(joined.text) == ["import torch\nx = 1", "", "%time y = 2\nz = 3\n"]
    changed = joined.text.replace("z = 3", "z = 4")
    assert joined.split(changed)[2] == "%time y = 2\nz = 4\n"


def test_split_refuses_a_changed_magic_or_a_lost_boundary() -> None:
    joined = join_cells(["!ls\nx = 1\n", "y = 2\n"])
    with pytest.raises(NotebookError):
        joined.split(joined.text.replace("0#s", "1#s"))
    with pytest.raises(NotebookError):
        joined.split(joined.text.replace(joined.marker + "\n", ""))


def test_reindented_magic_is_restored_at_its_new_indentation() -> None:
    joined = join_cells(["for x in y:\n    !echo hi\n    f(x)\n"])
    wrapped = joined.text.replace("for x in y:\n", "with g():\n  for x in y:\n").replace("    ", "      ")
    assert joined.split(wrapped) == ["with g():\n  for x in y:\n      !echo hi\n      f(x)\n"]


# --------------------------------------------------------------------------- the file


def test_train_notebook_program_skips_markdown_and_raw_cells() -> None:
    notebook = read_notebook(str(TRAIN))
    assert notebook.code.numbers == [2, 3, 4, 6, 7, 8, 10]
    assert "Training a classifier" not in notebook.text
    assert "for x in y: losses.append(loss)" not in notebook.text  # the raw cell
    compile(notebook.text, "train.ipynb", "exec")


def test_unchanged_program_writes_back_the_same_bytes() -> None:
    notebook = read_notebook(str(TRAIN))
    assert notebook.with_source(notebook.text) == TRAIN.read_bytes()


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b'{"cells": [', "invalid JSON (line 1, column 12)"),
        (b'{"a": 1}', 'no "cells" list'),
        (b'{"worksheets": [], "nbformat": 3}', "nbformat 3"),
        (b'{"cells": [], "nbformat": 5}', "nbformat is 5"),
        (b'{"cells": [{"cell_type": "code", "source": 3}], "nbformat": 4}', "cell 1 has a source that is not text"),
        (b"\xff\xfe{}", "not UTF-8"),
    ],
)
def test_not_a_notebook_is_one_clear_error(raw: bytes, message: str) -> None:
    with pytest.raises(NotebookError, match="^[^\n]*$") as caught:
        parse_notebook(raw)
    assert message in str(caught.value)


def test_non_python_kernel_has_no_code() -> None:
    raw = json.dumps(
        {"cells": [{"cell_type": "code", "source": "x <- 1", "metadata": {}, "outputs": []}],
         "metadata": {"kernelspec": {"language": "R"}}, "nbformat": 4, "nbformat_minor": 5}
    ).encode()
    assert parse_notebook(raw).text == ""


def test_lint_path_reports_program_rows_of_the_notebook() -> None:
    result = lint_path(str(TRAIN), ALL)
    assert not result.errors
    notebook = read_notebook(str(TRAIN))
    assert [(f.code, notebook.code.locate(f.location.row)) for f in result.findings] == [("ML001", (4, 4))]
