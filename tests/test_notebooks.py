"""Jupyter notebooks: the joined program, positions in cells, every format, fixes written back byte for byte."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner
from samples import SARIF_SCHEMA

from memlint.cli import main
from memlint.engine import lint_path
from memlint.notebook import NotebookError, join_cells, mask_cell, parse_notebook, read_notebook

HERE = Path(__file__).resolve().parent
TRAIN = HERE / "notebooks" / "train.ipynb"
CASES = HERE.parent / "test_cases" / "ML001_retained_graph"
ALL = ["ML000", "ML001", "ML002", "ML003", "ML004", "ML005", "ML006", "ML007", "ML008", "ML009", "ML010"]
KEPT = '    "    losses.append(loss)\\n",'  # the flagged line of train.ipynb (cell 4, line 4) in its JSON


def memlint(*args: str, cwd: Path) -> tuple[int, str, str]:
    old = os.getcwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(main, ["--no-cache", *args], catch_exceptions=False)
    finally:
        os.chdir(old)
    return result.exit_code, result.stdout, result.stderr


def file_line(path: Path, text: str) -> int:
    """The 1-based line of `path` that is exactly `text`."""
    return path.read_text(encoding="utf-8").splitlines().index(text) + 1


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
    [
        'doc = """\n!important\n%d items\n"""\n',
        "total = (a\n % b)\n",
        "total = a \\\n    % b\n",
        "if x != y:\n    pass\n",
        "value = a % b\n",
    ],
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
    assert joined.changes(changed) == [(7, "%time y = 2\nz = 3\n", "%time y = 2\nz = 4\n")]


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


def test_a_cell_marked_as_another_language_has_no_code() -> None:
    """VS Code marks a code cell that holds sample output as `plaintext`: it is not a syntax error."""
    log = {"cell_type": "code", "source": "iters: 100, epoch: 1 | loss: 0.47\n", "outputs": [],
           "metadata": {"vscode": {"languageId": "plaintext"}}}
    code = {"cell_type": "code", "source": "x = 1\n", "outputs": [], "metadata": {"vscode": {"languageId": "python"}}}
    raw = json.dumps({"cells": [code, log], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}).encode()
    assert parse_notebook(raw).text == "x = 1\n"


def test_a_syntax_error_names_its_cell(tmp_path: Path) -> None:
    (tmp_path / "broken_cell.ipynb").write_bytes(_notebook(["import torch", "%time x = 1\nfor x in y\n    pass"]))
    code, out, _ = memlint("broken_cell.ipynb", cwd=tmp_path)
    assert code == 1
    assert out.startswith("broken_cell.ipynb:cell 2:2:11: ML000 [syntax-error] SyntaxError: expected ':'")


def test_lint_path_reports_program_rows_of_the_notebook() -> None:
    result = lint_path(str(TRAIN), ALL)
    assert not result.errors
    notebook = read_notebook(str(TRAIN))
    assert [(f.code, notebook.code.locate(f.location.row)) for f in result.findings] == [("ML001", (4, 4))]


# --------------------------------------------------------------------------- every format


def test_text_names_the_cell(project: Path) -> None:
    code, out, _ = memlint("train.ipynb", cwd=project)
    assert code == 1
    assert "train.ipynb:cell 4:4:5: ML001 [*] [retained-graph]" in out
    assert "cell 4:4:19-cell 4:4:23 → loss.detach()" in out


def test_json_adds_the_cell_and_counts_rows_in_it(project: Path) -> None:
    (project / "plain.py").write_text("import torch\nlosses = []\nfor x in loader:\n    loss = model(x).sum()\n    losses.append(loss)\n")
    code, out, _ = memlint("--format", "json", ".", cwd=project)
    by_file = {Path(f["filename"]).name: f for f in json.loads(out)}
    notebook, plain = by_file["train.ipynb"], by_file["plain.py"]
    assert (notebook["cell"], notebook["location"], notebook["end_location"]) == (
        4, {"row": 4, "column": 5}, {"row": 4, "column": 24}
    )
    [edit] = notebook["fix"]["edits"]
    assert (edit["cell"], edit["location"], edit["end_location"]) == (4, {"row": 4, "column": 19}, {"row": 4, "column": 23})
    assert plain["cell"] is None and plain["location"] == {"row": 5, "column": 5}


def test_github_annotates_the_notebook_line_and_names_the_cell(project: Path) -> None:
    code, out, _ = memlint("--format", "github", "train.ipynb", cwd=project)
    line = file_line(project / "train.ipynb", KEPT)
    [annotation] = [l for l in out.splitlines() if l.startswith("::")]
    assert annotation.startswith(f"::warning file=train.ipynb,line={line},endLine={line},title=ML001 retained-graph::")
    assert "::cell 4, line 4, column 5: `loss` is kept" in annotation
    assert ",col=" not in annotation  # columns of the cell are not columns of the JSON line


def test_sarif_points_at_the_notebook_line_without_fixes(project: Path) -> None:
    code, out, _ = memlint("--format", "sarif", "train.ipynb", cwd=project)
    log = json.loads(out)
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    jsonschema.validators.validator_for(schema)(schema).validate(log)
    [result] = log["runs"][0]["results"]
    line = file_line(project / "train.ipynb", KEPT)
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "train.ipynb"
    assert location["region"] == {"startLine": line, "endLine": line}
    assert result["message"]["text"].startswith("cell 4, line 4, column 5: ")
    assert "fixes" not in result


def test_gitlab_and_rdjson_point_at_the_notebook_line(project: Path) -> None:
    line = file_line(project / "train.ipynb", KEPT)
    [issue] = json.loads(memlint("--format", "gitlab", "train.ipynb", cwd=project)[1])
    assert issue["location"] == {"path": "train.ipynb", "lines": {"begin": line, "end": line}}
    assert issue["description"].startswith("cell 4, line 4, column 5: ML001 [retained-graph]")
    [diagnostic] = json.loads(memlint("--format", "rdjson", "train.ipynb", cwd=project)[1])["diagnostics"]
    assert diagnostic["location"] == {"path": "train.ipynb", "range": {"start": {"line": line}, "end": {"line": line}}}
    assert diagnostic["message"].startswith("cell 4, line 4, column 5: ")
    assert diagnostic["original_output"].startswith("train.ipynb:cell 4:4:5: ML001")
    assert "suggestions" not in diagnostic


# --------------------------------------------------------------------------- fixing


def test_fix_changes_only_the_fixed_expression(project: Path) -> None:
    before = (project / "train.ipynb").read_bytes()
    code, out, err = memlint("--fix", "train.ipynb", cwd=project)
    assert code == 0, out + err
    after = (project / "train.ipynb").read_bytes()
    assert after == before.replace(b'"    losses.append(loss)\\n"', b'"    losses.append(loss.detach())\\n"')
    assert after != before


def test_diff_shows_cells_and_writes_nothing(project: Path) -> None:
    before = (project / "train.ipynb").read_bytes()
    code, out, _ = memlint("--diff", "train.ipynb", cwd=project)
    assert code == 1
    assert out.splitlines()[:2] == ["--- train.ipynb:cell 4", "+++ train.ipynb:cell 4"]
    assert "-    losses.append(loss)\n+    losses.append(loss.detach())\n" in out
    assert " %%time\n" in out  # the magic as written, not its placeholder
    assert (project / "train.ipynb").read_bytes() == before


def test_cross_cell_case_fixes_to_its_fixed_twin(tmp_path: Path) -> None:
    target = tmp_path / "case.ipynb"
    shutil.copy(CASES / "bad_notebook_loss_kept_across_cells.ipynb", target)
    code, out, err = memlint("--fix", str(target), cwd=tmp_path)
    # the detach shows that the loop never differentiates: ML003, whose fix is unsafe, is left to report
    assert code == 1 and "Fixed 1 finding." in out and " ML003 " in out, out + err
    assert target.read_bytes() == (CASES / "bad_notebook_loss_kept_across_cells.fixed.ipynb").read_bytes()


def test_fix_that_adds_a_line_keeps_magics_and_other_cells(tmp_path: Path) -> None:
    """ML003's unsafe fix wraps an evaluation loop in `with torch.no_grad():`: a new line in cell 3."""
    cells = [
        "%matplotlib inline\nimport torch\nmodel = torch.nn.Linear(4, 2)\nloader = [torch.randn(8, 4)]",
        "!nvidia-smi",
        "model.eval()\nfor x in loader:\n    %time y = 1\n    out = model(x)\n    print(out.sum().item())",
    ]
    raw = _notebook(cells)
    (tmp_path / "eval.ipynb").write_bytes(raw)
    code, out, err = memlint("--fix", "--unsafe-fixes", "--select", "ML003", "eval.ipynb", cwd=tmp_path)
    assert code == 0, out + err
    written = json.loads((tmp_path / "eval.ipynb").read_bytes())
    fixed = "".join(written["cells"][2]["source"])
    assert fixed == (
        "model.eval()\nwith torch.no_grad():\n    for x in loader:\n        %time y = 1\n"
        "        out = model(x)\n        print(out.sum().item())"
    )
    compile(read_notebook(str(tmp_path / "eval.ipynb")).text, "eval", "exec")
    assert [c["source"] for c in written["cells"][:2]] == [c["source"] for c in json.loads(raw)["cells"][:2]]
    assert written["cells"][2]["outputs"] == json.loads(raw)["cells"][2]["outputs"]


def test_noqa_in_a_cell(tmp_path: Path) -> None:
    raw = TRAIN.read_bytes().replace(b'"    losses.append(loss)\\n"', b'"    losses.append(loss)  # noqa: ML001\\n"')
    (tmp_path / "train.ipynb").write_bytes(raw)
    assert memlint("train.ipynb", cwd=tmp_path)[0] == 0


# --------------------------------------------------------------------------- bad notebooks, discovery


def test_broken_notebooks_next_to_good_files(project: Path) -> None:
    (project / "broken.ipynb").write_text('{"cells": [\n', encoding="utf-8")
    (project / "list.ipynb").write_text("[1, 2]\n", encoding="utf-8")
    (project / "clean.py").write_text("x = 1\n", encoding="utf-8")
    broken = (project / "broken.ipynb").read_bytes()
    code, out, err = memlint("--fix", ".", cwd=project)
    assert code == 1  # like ruff: a file that cannot be read is a finding (ML900), not a broken run
    assert not err.strip()
    assert "./broken.ipynb:1:1: ML900 [unreadable-file] not a Jupyter notebook: invalid JSON (line 2, column 1)" in out
    assert './list.ipynb:1:1: ML900 [unreadable-file] not a Jupyter notebook: no "cells" list at the top level' in out
    assert "Traceback" not in out + err
    assert (project / "broken.ipynb").read_bytes() == broken
    assert b"loss.detach()" in (project / "train.ipynb").read_bytes()  # the good notebook was still fixed


def test_include_settings_choose_the_files(project: Path) -> None:
    (project / "train.py").write_text("x = 1\n", encoding="utf-8")
    (project / "notes.txt").write_text("losses.append(loss)\n", encoding="utf-8")
    assert memlint(".", cwd=project)[0] == 1  # *.ipynb by default
    (project / "pyproject.toml").write_text('[tool.memlint]\ninclude = ["*.py"]\n', encoding="utf-8")
    assert memlint(".", cwd=project)[0] == 0
    (project / "pyproject.toml").write_text('[tool.memlint]\ninclude = ["*.py"]\nextend-include = ["*.ipynb"]\n')
    assert memlint(".", cwd=project)[0] == 1
    (project / "sub").mkdir()
    shutil.copy(TRAIN, project / "sub" / "kept.ipynb")
    (project / "pyproject.toml").write_text('[tool.memlint]\ninclude = ["*.py", "sub/*.ipynb"]\n')
    code, out, _ = memlint(".", cwd=project)
    assert "sub/kept.ipynb:cell 4:4:5" in out and "./train.ipynb" not in out


def _notebook(cells: list[str]) -> bytes:
    document = {
        "cells": [
            {"cell_type": "code", "execution_count": i + 1, "id": f"cell{i}", "metadata": {"tags": ["x"]},
             "outputs": [{"name": "stdout", "output_type": "stream", "text": [f"run {i}\n"]}],
             "source": source.splitlines(True)}
            for i, source in enumerate(cells)
        ],
        "metadata": {"kernelspec": {"language": "python", "name": "python3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return (json.dumps(document, indent=1, sort_keys=True, ensure_ascii=False) + "\n").encode()


def test_diff_base_maps_notebook_lines_to_cells(tmp_path: Path) -> None:
    from samples import git_env
    from test_diff_base import Repo

    repo = Repo(tmp_path / "repo", git_env(tmp_path))
    shutil.copy(TRAIN, repo.path / "train.ipynb")
    repo.commit("initial")
    repo.git("checkout", "-q", "-b", "feature")
    document = json.loads(TRAIN.read_text(encoding="utf-8"))
    document["cells"][3]["execution_count"] = 42  # re-ran the leaky cell: not a code change
    new_cell = "for x, y in loader:\n    loss = criterion(model(x), y)\n    loss.backward()\n    losses.append(loss)\n"
    document["cells"].append({**document["cells"][2], "id": "new", "source": new_cell.splitlines(True)})
    repo.write("train.ipynb", json.dumps(document, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
    repo.commit("another loop")
    done = repo.memlint(".")
    assert sorted((f["cell"], f["location"]["row"]) for f in json.loads(done.stdout)) == [(4, 4), (11, 4)]
    done = repo.memlint("--diff-base", "main", ".")
    assert [(f["cell"], f["location"]["row"]) for f in json.loads(done.stdout)] == [(11, 4)]


# --------------------------------------------------------------------------- other writers' layouts


def _document(first: str | list[str]) -> dict:
    return {
        "cells": [
            {"cell_type": "code", "execution_count": 3, "metadata": {"scrolled": True}, "outputs": [], "source": first},
            {"cell_type": "markdown", "metadata": {}, "source": ["# Ünïcode — notes\n"]},
            {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": ["x = 'é'\n", "y = 2"]},
        ],
        "metadata": {"kernelspec": {"language": "python"}},
        "nbformat": 4,
        "nbformat_minor": 2,
    }


WRITERS = {
    "nbformat": lambda d: json.dumps(d, indent=1, sort_keys=True, ensure_ascii=False) + "\n",
    "json.dump defaults": lambda d: json.dumps(d),
    "indent 2, ascii escapes": lambda d: json.dumps(d, indent=2, ensure_ascii=True),
    "no trailing newline": lambda d: json.dumps(d, indent=4, ensure_ascii=False),
    "CRLF": lambda d: (json.dumps(d, indent=1, ensure_ascii=False) + "\n").replace("\n", "\r\n"),
}


@pytest.mark.parametrize("writer", WRITERS, ids=list(WRITERS))
@pytest.mark.parametrize(
    ("first", "changed"),
    [
        (["a = 1\n", "b = 2"], ["a = 1\n", "b = 3"]),
        ("a = 1\nb = 2", "a = 1\nb = 3"),
        ([], ["import torch\n"]),
        (["import torch\n", "b = 2"], []),
    ],
    ids=["lines", "one string", "empty filled", "emptied"],
)
def test_write_back_keeps_the_writer_layout(writer: str, first, changed) -> None:
    render = WRITERS[writer]
    raw = render(_document(first)).encode("utf-8")
    notebook = parse_notebook(raw)
    new_first = changed if isinstance(changed, str) else "".join(changed)
    program = join_cells([new_first, "x = 'é'\ny = 2"], notebook.code.numbers).text
    assert notebook.with_source(notebook.text) == raw
    assert notebook.with_source(program) == render(_document(changed)).encode("utf-8")


def test_the_project_index_sees_a_notebook_as_a_module(tmp_path: Path) -> None:
    """A loss from a project Function that keeps tensors on ctx makes the notebook's ML001 an error."""
    from samples import LEAKY_OPS

    (tmp_path / "ops.py").write_text(LEAKY_OPS, encoding="utf-8")
    cells = [
        "%load_ext autoreload\nimport torch\nfrom ops import fused_matmul\nw = torch.randn(4, 4, requires_grad=True)\nlosses = []",
        "for x in [torch.randn(2, 4) for _ in range(3)]:\n    loss = fused_matmul(x, w).sum()\n    loss.backward()\n    losses.append(loss)",
    ]
    (tmp_path / "explore.ipynb").write_bytes(_notebook(cells))
    code, out, _ = memlint("--format", "json", "explore.ipynb", "ops.py", cwd=tmp_path)
    kept = [f for f in json.loads(out) if f["filename"] == "explore.ipynb" and f["code"] == "ML001"]
    assert [(f["cell"], f["location"]["row"], f["severity"]) for f in kept] == [(2, 4, "error")]
    assert "ContextMatmul" in kept[0]["message"]


def test_many_notebooks_in_parallel_with_the_cache(tmp_path: Path) -> None:
    """Workers lint and fix notebooks in other processes; cached findings keep their cells."""
    from memlint.workers import PARALLEL_THRESHOLD

    for index in range(PARALLEL_THRESHOLD + 1):
        shutil.copy(TRAIN, tmp_path / f"run{index:02d}.ipynb")
    old = os.getcwd()
    os.chdir(tmp_path)
    try:
        first = CliRunner().invoke(main, ["--format", "json", "."], catch_exceptions=False)
        cached = CliRunner().invoke(main, ["--format", "json", "."], catch_exceptions=False)
        fixed = CliRunner().invoke(main, ["--fix", "."], catch_exceptions=False)
    finally:
        os.chdir(old)
    assert first.stdout == cached.stdout
    assert {(f["cell"], f["location"]["row"]) for f in json.loads(cached.stdout)} == {(4, 4)}
    assert fixed.exit_code == 0, fixed.output
    expected = TRAIN.read_bytes().replace(b'"    losses.append(loss)\\n"', b'"    losses.append(loss.detach())\\n"')
    assert all(path.read_bytes() == expected for path in tmp_path.glob("*.ipynb"))
