"""What ruff users type and expect, run as they would run it: the real `memlint` command in a
subprocess (aliases, closed pipes, standard input, suppression comments, --add-noqa, ...)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from samples import LEAKY_TRAIN

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
MEMLINT = [sys.executable, "-m", "memlint"]


def memlint(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*MEMLINT, *args], cwd=cwd, env=ENV, input=stdin, capture_output=True, text=True)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "train.py").write_text(LEAKY_TRAIN)
    return tmp_path


def test_check_is_lint_and_rule_is_explain(project: Path) -> None:
    checked = memlint("check", "--no-cache", ".", cwd=project)
    linted = memlint("lint", "--no-cache", ".", cwd=project)
    assert checked.returncode == linted.returncode == 1
    assert checked.stdout == linted.stdout
    assert "train.py:10:9: ML001" in checked.stdout
    rule = memlint("rule", "ML001", cwd=project)
    assert rule.returncode == 0
    assert rule.stdout == memlint("explain", "ML001", cwd=project).stdout
    assert rule.stdout.startswith("# retained-graph (ML001)")
    listing = memlint("--help", cwd=project).stdout
    assert "alias: check" in listing and "alias: rule" in listing


def test_rules_into_head_exits_0_quietly(tmp_path: Path) -> None:
    """A real shell pipe: `head -1` closes it after one line; with pipefail memlint's status shows."""
    command = " ".join(MEMLINT) + " rules | head -1"
    done = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=tmp_path, env=ENV, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ML001")
    assert done.stderr == ""


def test_a_pipe_closed_before_any_output_exits_0_quietly(project: Path) -> None:
    """The reader goes away before memlint writes a byte: every write fails, even the last flush."""
    for args in (["rules"], ["lint", "--no-cache", "."], ["rule", "ML001"], ["--help"], ["--version"]):
        process = subprocess.Popen([*MEMLINT, *args], cwd=project, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        process.stdout.close()
        stderr = process.stderr.read().decode()
        assert process.wait() == 0, stderr
        assert "Error" not in stderr and "Traceback" not in stderr


@pytest.mark.parametrize("args", [["-"], ["--stdin-filename", "train.py"], ["--stdin-filename", "train.py", "-"]])
def test_standard_input_has_no_spurious_warning(tmp_path: Path, args: list[str]) -> None:
    done = memlint("--no-cache", *args, cwd=tmp_path, stdin=LEAKY_TRAIN)
    assert done.returncode == 1
    assert "ML001" in done.stdout
    assert done.stderr == ""


ANOMALY = "import torch\n\ntorch.autograd.set_detect_anomaly(True)\n"  # ML009: an unsafe fix only


def test_diff_and_fix_say_how_many_unsafe_fixes_wait(tmp_path: Path) -> None:
    (tmp_path / "anomaly.py").write_text(ANOMALY)
    diff = memlint("--no-cache", "--diff", "anomaly.py", cwd=tmp_path)
    assert diff.returncode == 0 and diff.stdout == ""
    assert diff.stderr == "No findings would be fixed (1 fix available with `--unsafe-fixes`).\n"
    unsafe = memlint("--no-cache", "--diff", "--unsafe-fixes", "anomaly.py", cwd=tmp_path)
    assert unsafe.returncode == 1 and "+torch.autograd.set_detect_anomaly(False)" in unsafe.stdout
    assert unsafe.stderr == "Would fix 1 finding.\n"
    fixed = memlint("--no-cache", "--fix", "anomaly.py", cwd=tmp_path)
    assert fixed.returncode == 1
    assert "No fixes available (1 hidden fix can be enabled with the `--unsafe-fixes` option)." in fixed.stdout
    as_json = memlint("--no-cache", "--fix", "--format", "json", "anomaly.py", cwd=tmp_path)
    assert as_json.stderr == "memlint: 1 hidden fix can be enabled with the `--unsafe-fixes` option.\n"
    assert (tmp_path / "anomaly.py").read_text() == ANOMALY  # unsafe: never applied without the option


def test_a_display_only_fix_does_not_repeat_its_help_line(tmp_path: Path) -> None:
    source = ROOT / "test_cases" / "ML004_empty_cache_per_step" / "bad_empty_cache_every_step.py"
    (tmp_path / "step.py").write_text(source.read_text())
    done = memlint("--no-cache", "step.py", cwd=tmp_path)
    assert done.returncode == 1
    finding, help_line, *summary = done.stdout.splitlines()
    assert " ML004 [empty-cache-per-step] " in finding and help_line.startswith("    help: remove it")
    assert summary[0].startswith("Found 1 finding")
    assert "display-only" not in done.stdout


def test_show_settings_prints_what_applies_to_the_file(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.memlint]\nignore = ["ML004"]\nper-file-ignores = {"tests/*" = ["ML001"]}\nextend-exclude = ["generated"]\n'
    )
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_train.py").write_text(LEAKY_TRAIN)
    done = memlint("--show-settings", "tests", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "Resolved settings for: 'tests/test_train.py'"
    assert lines[1] == f"Settings path: {str(tmp_path / 'pyproject.toml')!r}"
    settings = dict(line.split(" = ", 1) for line in lines[3:])
    assert "'ML004'" not in settings["select"] and "'ML001'" in settings["select"]
    assert "'ML001'" not in settings["codes for this file"] and "'ML002'" in settings["codes for this file"]
    assert settings["exclude"].endswith("'generated']")
    assert settings["per-file-ignores"] == "{'tests/*': ['ML001']}"
    assert "No Python files" not in done.stderr


def test_isolated_ignores_the_configuration_files(tmp_path: Path) -> None:
    """ruff's `--isolated`: a project's pyproject.toml above the linted tree does not apply, so a tree is
    linted as it would be on its own (default rules and excludes, its own directory as the root)."""
    (tmp_path / "pyproject.toml").write_text('[tool.memlint]\nignore = ["ML001"]\nextend-exclude = ["generated"]\n')
    (tmp_path / "tree" / "generated").mkdir(parents=True)
    (tmp_path / "tree" / "train.py").write_text(LEAKY_TRAIN)
    (tmp_path / "tree" / "generated" / "step.py").write_text(LEAKY_TRAIN)
    assert findings(memlint("--no-cache", "--format", "json", "tree", cwd=tmp_path)) == []
    isolated = memlint("--no-cache", "--isolated", "--show-settings", "tree", cwd=tmp_path)
    lines = isolated.stdout.splitlines()
    assert lines[1] == "Settings path: 'none (defaults)'" and f"root = {str(tmp_path / 'tree')!r}" in lines
    assert findings(memlint("--no-cache", "--isolated", "--format", "json", "tree", cwd=tmp_path)) == [
        ("step.py", "ML001", 10),
        ("train.py", "ML001", 10),
    ]
    both = memlint("--isolated", "--config", "pyproject.toml", "tree", cwd=tmp_path)
    assert both.returncode == 2 and both.stdout == ""
    assert both.stderr == "memlint: error: --config cannot be used with --isolated\n"


def findings(done: subprocess.CompletedProcess[str]) -> list[tuple[str, str, int]]:
    import json

    assert done.returncode in (0, 1), done.stderr
    return [(Path(f["filename"]).name, f["code"], f["location"]["row"]) for f in json.loads(done.stdout)]


@pytest.mark.parametrize(
    ("comment", "left"),
    [
        ("# memlint: noqa", []),
        ("# memlint: noqa: ML001", []),
        ("# memlint: noqa: retained-graph, ML004", []),
        ("  #memlint:NOQA:ml001", []),
        ("# memlint: noqa: ML004", [("train.py", "ML001", 11)]),  # another rule: ML001 stays
        ("x = 1  # memlint: noqa", [("train.py", "ML001", 11)]),  # not on a line of its own: not file-level
    ],
)
def test_file_level_noqa(project: Path, comment: str, left: list) -> None:
    (project / "train.py").write_text(comment + "\n" + LEAKY_TRAIN)
    assert findings(memlint("--no-cache", "--format", "json", ".", cwd=project)) == left


def test_file_level_noqa_keeps_the_syntax_error(tmp_path: Path) -> None:
    (tmp_path / "broken.py").write_text("# memlint: noqa\nx = (\n")
    assert findings(memlint("--no-cache", "--format", "json", ".", cwd=tmp_path)) == [("broken.py", "ML000", 2)]


ENV_HELPER = 'import os\n\n\ndef set_alloc_conf():\n    os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"{comment}\n'
ALLOC_ENTRY = "import torch\n\nfrom envhelp import set_alloc_conf\n\n\ndef main():\n    model = torch.nn.Linear(4, 4).cuda()\n    set_alloc_conf()\n"


def test_file_level_noqa_covers_what_another_file_shows(tmp_path: Path) -> None:
    """ML010 in envhelp.py comes from train.py's calls (the project pass), not from envhelp.py alone."""
    (tmp_path / "train.py").write_text(ALLOC_ENTRY)
    (tmp_path / "envhelp.py").write_text(ENV_HELPER.format(comment=""))
    assert ("envhelp.py", "ML010", 5) in findings(memlint("--no-cache", "--format", "json", ".", cwd=tmp_path))
    (tmp_path / "envhelp.py").write_text("# memlint: noqa: ML010\n" + ENV_HELPER.format(comment=""))
    assert findings(memlint("--no-cache", "--format", "json", ".", cwd=tmp_path)) == []


UNUSED = LEAKY_TRAIN.replace("losses.append(loss)", "losses.append(loss)  # noqa: ML001").replace(
    "opt.step()", "opt.step()  # noqa: E501, ML001"
).replace("loss.backward()", "loss.backward()  # memlint: ignore[retained-graph]").replace(
    "return losses", "return losses  # noqa: ML004"
)


def test_unused_suppressions_are_off_by_default_like_ruffs_ruf100(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(UNUSED)
    assert findings(memlint("--no-cache", "--format", "json", ".", cwd=tmp_path)) == []
    selected = findings(memlint("--no-cache", "--format", "json", "--extend-select", "ML100", ".", cwd=tmp_path))
    # used (row 10), unused (rows 8, 9 and 11); ML004's rule ran and found nothing there either
    assert selected == [("train.py", "ML100", 8), ("train.py", "ML100", 9), ("train.py", "ML100", 11)]
    assert findings(memlint("--no-cache", "--format", "json", "--select", "ALL", ".", cwd=tmp_path)) == selected
    only_some = memlint("--no-cache", "--format", "json", "--select", "ML001,ML100", ".", cwd=tmp_path)
    assert findings(only_some) == selected[:2]  # ML004 did not run: its comment is not judged


def test_the_unused_suppression_fix_removes_the_code_or_the_comment(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(UNUSED)
    done = memlint("--no-cache", "--extend-select", "ML100", "--fix", ".", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    expected = UNUSED.replace("opt.step()  # noqa: E501, ML001", "opt.step()  # noqa: E501")
    expected = expected.replace("loss.backward()  # memlint: ignore[retained-graph]", "loss.backward()")
    assert (tmp_path / "train.py").read_text() == expected.replace("return losses  # noqa: ML004", "return losses")


def test_a_suppression_used_by_the_project_pass_is_not_unused(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(ALLOC_ENTRY)
    (tmp_path / "envhelp.py").write_text(ENV_HELPER.format(comment="  # noqa: ML010"))
    assert findings(memlint("--no-cache", "--format", "json", "--extend-select", "ML100", ".", cwd=tmp_path)) == []


NOTEBOOK = ROOT / "tests" / "notebooks" / "train.ipynb"


def test_add_noqa_suppresses_every_finding_in_place(tmp_path: Path) -> None:
    kept = "losses.append(loss)"
    (tmp_path / "other_tool.py").write_text(LEAKY_TRAIN.replace(kept, kept + "  # noqa: E501"))
    (tmp_path / "continued.py").write_text(LEAKY_TRAIN.replace(kept, "losses.append(loss  \\\n  )"))
    (tmp_path / "train.ipynb").write_bytes(NOTEBOOK.read_bytes())
    before = memlint("--no-cache", "--format", "json", ".", cwd=tmp_path)
    assert len(findings(before)) == 3
    done = memlint("--no-cache", "--add-noqa", ".", cwd=tmp_path)
    assert done.returncode == 0 and done.stdout == ""
    assert done.stderr == "Added 3 noqa directives.\n"
    assert memlint("--no-cache", ".", cwd=tmp_path).returncode == 0
    assert (tmp_path / "other_tool.py").read_text() == LEAKY_TRAIN.replace(kept, kept + "  # noqa: E501, ML001")
    # the first line ends in a backslash: the comment goes on the finding's last line
    assert (tmp_path / "continued.py").read_text() == LEAKY_TRAIN.replace(kept, "losses.append(loss  \\\n  )  # noqa: ML001")
    cell = (tmp_path / "train.ipynb").read_text()
    assert cell == NOTEBOOK.read_text().replace('"    losses.append(loss)\\n"', '"    losses.append(loss)  # noqa: ML001\\n"')
    again = memlint("--no-cache", "--add-noqa", ".", cwd=tmp_path)
    assert again.returncode == 0 and again.stderr == "Added 0 noqa directives.\n"


def test_add_noqa_never_writes_a_file_that_would_not_parse(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Defence in depth: should a comment ever break the code, the file is left as it was."""
    import memlint.add_noqa as module
    from memlint.engine import lint_path

    path = tmp_path / "train.py"
    path.write_text(LEAKY_TRAIN)
    found = lint_path(str(path), ["ML001"]).findings
    monkeypatch.setattr(module, "add_noqa", lambda line, code: line + " (")
    added = module.add_noqa_comments(found)
    assert added.count == 0 and path.read_text() == LEAKY_TRAIN
    [warning] = added.warnings
    assert warning.startswith(f"{path}: not written: with the comments it would not parse")


@pytest.mark.parametrize(("args", "message"), [
    (["--add-noqa", "--fix", "."], "--add-noqa cannot be combined with --fix, --fix-only or --diff"),
    (["--add-noqa", "-"], "--fix, --fix-only, --diff and --add-noqa work on files, not on standard input"),
])
def test_add_noqa_refuses_what_it_cannot_do_in_one_line(project: Path, args: list[str], message: str) -> None:
    done = memlint("--no-cache", *args, cwd=project, stdin="")
    assert done.returncode == 2
    assert done.stderr == f"memlint: error: {message}\n"
    assert (project / "train.py").read_text() == LEAKY_TRAIN


def test_editor_relints_judge_suppressions_like_a_full_lint(tmp_path: Path) -> None:
    """The language server re-lints an edited buffer through its incremental parser, which keeps
    the findings of unchanged statements: file-level noqa and ML100 must come out the same."""
    from memlint.config import load_settings
    from memlint.engine import lint_text
    from memlint.server.incremental import IncrementalParser

    settings = load_settings(isolated=True, extend_select=["ML100"])
    path = str(tmp_path / "train.py")
    first = UNUSED + "\n\ndef other():\n    return 1\n"
    edited = first.replace("return 1", "return 2")
    parser = IncrementalParser()
    for text in (first, edited, "# memlint: noqa: ML100\n" + edited):
        through = lint_text(path, text, settings, parser=parser)
        plain = lint_text(path, text, settings)
        assert through.findings == plain.findings and not through.errors
    assert [f.code for f in lint_text(path, edited, settings, parser=parser).findings] == ["ML100"] * 3
    assert lint_text(path, "# memlint: noqa: ML100\n" + edited, settings, parser=parser).findings == []
