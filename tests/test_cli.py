"""The command line as a user meets it: exit codes, configuration, suppression, bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from samples import LEAKY_TRAIN

from memlint.cli import main

CLEAN = "import torch\n\nx = torch.zeros(3)\n"


def run(args: list[str], cwd: Path) -> tuple[int, str, str]:
    old = os.getcwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(main, args, catch_exceptions=False)
    finally:
        os.chdir(old)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "train.py").write_text(LEAKY_TRAIN)
    (tmp_path / "clean.py").write_text(CLEAN)
    return tmp_path


def test_exit_codes(project: Path) -> None:
    code, out, _ = run(["--no-cache", "train.py"], project)
    assert code == 1
    assert "train.py:10:9: ML001 [*] [retained-graph]" in out
    assert "help: store `loss.detach()`" in out
    assert run(["--no-cache", "clean.py"], project)[0] == 0
    assert run(["--no-cache", "--exit-zero", "train.py"], project)[0] == 0
    assert run(["--no-cache", "--select", "nope"], project)[0] == 2
    assert run(["--no-cache", "missing.py"], project)[0] == 2


def test_default_path_and_lint_subcommand(project: Path) -> None:
    assert run(["--no-cache"], project)[0] == 1
    assert run(["lint", "--no-cache", "clean.py"], project)[0] == 0


def test_json_is_ruff_compatible(project: Path) -> None:
    code, out, _ = run(["--no-cache", "--format", "json", "train.py"], project)
    assert code == 1
    [finding] = json.loads(out)
    assert {"code", "name", "message", "severity", "filename", "location", "end_location", "fix"} <= set(finding)
    assert finding["location"] == {"row": 10, "column": 9}
    assert finding["end_location"] == {"row": 10, "column": 28}
    assert finding["fix"]["applicability"] == "safe"
    assert finding["fix"]["edits"] == [
        {"content": "loss.detach()", "location": {"row": 10, "column": 23}, "end_location": {"row": 10, "column": 27}}
    ]
    assert finding["severity"] == "warning"  # backwarded: a 0-dim loss and its graph skeleton, 512 bytes a step


def test_select_ignore_by_code_and_name(project: Path) -> None:
    assert run(["--no-cache", "--ignore", "retained-graph", "train.py"], project)[0] == 0
    assert run(["--no-cache", "--select", "ML004", "train.py"], project)[0] == 0
    assert run(["--no-cache", "--select", "ML004", "--extend-select", "ML001", "train.py"], project)[0] == 1
    assert run(["--no-cache", "--select", "ALL", "train.py"], project)[0] == 1


def test_statistics_and_quiet(project: Path) -> None:
    code, out, _ = run(["--no-cache", "--statistics", "."], project)
    assert code == 1 and out.split() == ["1", "ML001", "[*]", "retained-graph"]
    code, out, _ = run(["--no-cache", "-q", "clean.py"], project)
    assert code == 0 and out == ""


def test_no_color_when_not_a_tty(project: Path) -> None:
    _, out, _ = run(["--no-cache", "train.py"], project)
    assert "\x1b[" not in out


def test_pyproject_configuration(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.memlint]\nignore = ["ML001"]\n')
    assert run(["--no-cache", "train.py"], project)[0] == 0
    (project / "pyproject.toml").write_text('[tool.memlint.per-file-ignores]\n"train*.py" = ["retained-graph"]\n')
    assert run(["--no-cache", "train.py"], project)[0] == 0
    (project / "pyproject.toml").write_text('[tool.memlint]\nselect = ["ML004"]\n')
    assert run(["--no-cache", "train.py"], project)[0] == 0
    (project / "pyproject.toml").write_text('[tool.memlint]\nextend-exclude = ["train.py"]\n')
    assert run(["--no-cache", "."], project)[0] == 0


@pytest.mark.parametrize(
    "toml, message",
    [
        ('[tool.memlint]\nselct = ["ML001"]\n', "unknown key(s) in [tool.memlint]: selct"),
        ('[tool.memlint]\nignore = ["ML999"]\n', "unknown rule 'ML999'"),
        ('[tool.memlint]\nignore = "ML001"\n', "must be a list of strings"),
        ("[tool.memlint\n", "invalid TOML"),
    ],
)
def test_bad_configuration_is_exit_2(project: Path, toml: str, message: str) -> None:
    (project / "pyproject.toml").write_text(toml)
    code, _, err = run(["--no-cache", "train.py"], project)
    assert code == 2
    assert message in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    "comment",
    ["# noqa", "# noqa: ML001", "# noqa: E501, ML001", "# memlint: ignore[ML001]", "# memlint: ignore[retained-graph]", "# memlint: ignore"],
)
def test_inline_suppression(project: Path, comment: str) -> None:
    (project / "train.py").write_text(LEAKY_TRAIN.replace("losses.append(loss)", f"losses.append(loss)  {comment}"))
    assert run(["--no-cache", "train.py"], project)[0] == 0


def test_other_codes_do_not_suppress(project: Path) -> None:
    (project / "train.py").write_text(LEAKY_TRAIN.replace("losses.append(loss)", "losses.append(loss)  # noqa: ML004"))
    assert run(["--no-cache", "train.py"], project)[0] == 1


def test_skip_file(project: Path) -> None:
    (project / "train.py").write_text("# memlint: skip-file\n" + LEAKY_TRAIN)
    assert run(["--no-cache", "train.py"], project)[0] == 0


def test_bad_input_never_breaks_the_run(project: Path) -> None:
    (project / "broken.py").write_text("def f(:\n    pass\n")
    (project / "latin.py").write_bytes(b"x = '\xff\xfe'\n")
    (project / "cookie.py").write_bytes(b"# -*- coding: latin-1 -*-\nx = '\xe9'\n")
    (project / "runtime_codec.py").write_bytes(b"# -*- coding: future_fstrings -*-\nx = f'{1}'\n")
    (project / "runtime_codec_bytes.py").write_bytes(b"# -*- coding: future_fstrings -*-\nx = '\xe9'\n")
    code, out, err = run(["--no-cache", "."], project)
    assert code == 1  # like ruff: an undecodable file is a finding of its own, not a broken run
    assert "broken.py:1:7: ML000 [syntax-error]" in out
    assert "train.py:10:9: ML001" in out  # the rest is still linted
    assert out.count("latin.py") == 1 and "latin.py:1:1: ML900 [unreadable-file] cannot decode" in out
    assert "cookie.py" not in out + err  # a PEP 263 cookie is honoured
    assert "runtime_codec.py" not in out + err  # a codec registered at run time: the text is UTF-8
    assert "runtime_codec_bytes.py:1:1: ML900" in out  # ... and text that is not UTF-8 still says so
    assert "Traceback" not in out + err


@pytest.mark.parametrize("output_format", ["json", "sarif", "github", "gitlab", "rdjson"])
def test_an_unreadable_file_is_a_finding_in_every_format(project: Path, output_format: str) -> None:
    (project / "latin.py").write_bytes(b"x = '\xff\xfe'\n")
    code, out, err = run(["--no-cache", "--format", output_format, "latin.py", "train.py"], project)
    assert code == 1 and "ML900" in out and not err.strip()
    assert "ML001" in out  # the other file is still linted


def test_ignoring_ml900_makes_an_unreadable_file_an_error_again(project: Path) -> None:
    (project / "latin.py").write_bytes(b"x = '\xff\xfe'\n")
    code, out, err = run(["--no-cache", "--ignore", "ML900", "latin.py"], project)
    assert code == 2 and "cannot decode" in err and "ML900" not in out


def test_explain_documents_the_file_level_codes(project: Path) -> None:
    code, out, _ = run(["explain", "unreadable-file"], project)
    assert code == 0 and "# unreadable-file (ML900)" in out and "PEP 263" in out


def test_syntax_error_alone_is_a_finding(project: Path) -> None:
    (project / "broken.py").write_text("x = (\n")
    code, out, _ = run(["--no-cache", "broken.py"], project)
    assert code == 1 and "ML000 [syntax-error]" in out


def test_rule_crash_is_an_internal_error(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from memlint.rules.ml001_retained_graph import RetainedGraph

    def boom(self, node):  # noqa: ANN001
        raise RuntimeError("boom")

    monkeypatch.setattr(RetainedGraph, "visit_Expr", boom)
    (project / "empty_cache.py").write_text(
        "import torch\ndef f(model, loader, opt):\n    for b in loader:\n        model(b).sum().backward()\n"
        "        opt.step()\n        torch.cuda.empty_cache()\n"
    )
    code, out, err = run(["--no-cache", "train.py", "empty_cache.py"], project)
    assert code == 2
    assert "internal error: train.py: in rule ML001 [retained-graph]: RuntimeError: boom" in err
    assert "empty_cache.py:6:9: ML004" in out  # other rules and files still report
    assert "Traceback" not in err


def test_discovery_skips_what_it_should(project: Path) -> None:
    for folder in ("node_modules", "build", ".git", "__pycache__", "ignored_dir", "venv_custom"):
        (project / folder).mkdir()
        (project / folder / "leak.py").write_text(LEAKY_TRAIN)
    (project / "venv_custom" / "pyvenv.cfg").write_text("home = /usr\n")
    (project / ".gitignore").write_text("ignored_dir/\n*_generated.py\n")
    (project / "x_generated.py").write_text(LEAKY_TRAIN)
    code, out, _ = run(["--no-cache", "--format", "json", "."], project)
    assert {Path(f["filename"]).name for f in json.loads(out)} == {"train.py"}
    # a file named explicitly is always linted
    assert run(["--no-cache", "x_generated.py"], project)[0] == 1


def test_cache_warm_run_and_invalidation(project: Path) -> None:
    assert run(["train.py"], project)[0] == 1
    assert (project / ".memlint_cache").is_dir()
    assert run(["train.py"], project)[0] == 1  # from the cache
    (project / "train.py").write_text(LEAKY_TRAIN.replace("losses.append(loss)", "losses.append(loss.item())"))
    assert run(["train.py"], project)[0] == 0  # content changed: linted again
    assert run(["--ignore", "ML001", "--cache-dir", str(project / "c2"), "clean.py"], project)[0] == 0
    assert (project / "c2").is_dir()


def test_rules_and_explain(project: Path) -> None:
    code, out, _ = run(["rules"], project)
    from memlint.rules import ALL_RULES, FILE_PROBLEMS

    assert code == 0 and "ML001  retained-graph" in out and out.count("\n") == len(ALL_RULES) + len(FILE_PROBLEMS)
    code, out, _ = run(["explain", "retained-graph"], project)
    assert code == 0
    for section in ("## What it does", "## Why is this bad?", "## Example", "## Use instead", "+192 MiB"):
        assert section in out
    assert run(["explain", "ML999"], project)[0] == 2


def test_linting_never_imports_torch(project: Path) -> None:
    script = (
        "import sys, runpy\nsys.argv = ['memlint', '--no-cache', '.']\n"
        "try:\n    runpy.run_module('memlint', run_name='__main__')\n"
        "except SystemExit:\n    pass\nprint('torch' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", script], cwd=project, capture_output=True, text=True)
    assert out.stdout.strip().splitlines()[-1] == "False", out.stderr


def test_readme_rule_table_matches_the_rules() -> None:
    from memlint.cli import rule_table_markdown

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    start, end = "<!-- rules-table:start -->\n", "\n<!-- rules-table:end -->"
    assert readme[readme.index(start) + len(start) : readme.index(end)] == rule_table_markdown()


def test_no_fix_that_would_make_optional_torch_a_hard_dependency(project: Path) -> None:
    (project / "ev.py").write_text(
        "from utils import is_torch_available\nif is_torch_available():\n    import torch\n\n"
        "def evaluate(model, loader):\n    model.eval()\n    for x in loader:\n        out = model(x)\n"
    )
    code, out, _ = run(["--no-cache", "--format", "json", "ev.py"], project)
    [finding] = json.loads(out)
    assert finding["code"] == "ML003" and finding["fix"]["applicability"] == "display-only"
    assert finding["fix"]["edits"] == []


def test_the_rule_order_and_so_the_cache_key_do_not_depend_on_the_hash_seed() -> None:
    """Two runs of a clean tree must read each other's cache: the codes a cache key holds come in one order."""
    program = "from memlint.config import load_settings; print(load_settings(isolated=True).codes)"
    orders = {
        subprocess.run(
            [sys.executable, "-c", program], env={**os.environ, "PYTHONHASHSEED": str(seed)}, capture_output=True, text=True, check=True
        ).stdout
        for seed in range(8)
    }
    assert len(orders) == 1, orders


def test_output_file_creates_its_directories(project: Path) -> None:
    code, out, err = run(["--no-cache", "--format", "sarif", "-o", "reports/ci/memlint.sarif", "--exit-zero", "train.py"], project)
    assert code == 0, err
    assert out == ""
    assert json.loads((project / "reports" / "ci" / "memlint.sarif").read_text())["version"] == "2.1.0"


@pytest.mark.parametrize("layout", ["empty", "no_python"])
def test_no_python_files_warns_and_exits_0(tmp_path: Path, layout: str) -> None:
    (tmp_path / "src").mkdir()
    if layout == "no_python":
        (tmp_path / "src" / "notes.txt").write_text("not python\n")
    code, _, err = run(["--no-cache", "src"], tmp_path)
    assert code == 0
    assert err == "memlint: warning: No Python files found under the given path(s)\n"


def test_concise_output_is_one_line_a_finding(project: Path) -> None:
    (project / "eval.py").write_text(LEAKY_TRAIN.replace("opt.step()", "opt.step()\n        print(loss)"))
    for flag in ("--output-format", "--format"):
        code, out, _ = run(["--no-cache", flag, "concise", "train.py", "eval.py"], project)
        assert code == 1
        lines = out.splitlines()
        assert [line.split(":")[0] for line in lines[:2]] == ["eval.py", "train.py"]
        assert lines[1].startswith("train.py:10:9: ML001 [*] [retained-graph] `loss` is kept")
        assert lines[2:] == ["Found 2 findings (0 errors, 2 warnings).", "[*] 2 fixable with the `--fix` option."]


def test_show_source_frames_the_flagged_code(project: Path) -> None:
    (project / "tabs.py").write_text(
        "import torch\ndef f(model, loader):\n\tkept = []\n\tfor x in loader:\n\t\tkept.append(model(x).sum())\n"
    )
    code, out, _ = run(["--no-cache", "--show-source", "train.py", "tabs.py"], project)
    assert code == 1
    frames = out.split("ML001")
    assert (
        "\n  |\n4 | \tfor x in loader:\n5 | \t\tkept.append(model(x).sum())\n  | \t\t" + "^" * 27 + "\n  |\n    help:"
    ) in frames[1]
    assert "\n   |\n 9 |         opt.step()\n10 |         losses.append(loss)\n   |         " + "^" * 19 + "\n   |\n" in frames[2]


@pytest.mark.parametrize(
    ("selector", "expected"),
    [("ML", {"ML001", "ML004"}), ("ML0", {"ML001", "ML004"}), ("ML00", {"ML001", "ML004"}), ("ml001", {"ML001"}),
     ("ML01", set())],
)
def test_select_takes_code_prefixes(project: Path, selector: str, expected: set[str]) -> None:
    (project / "cache.py").write_text(
        "import torch\ndef f(model, loader, opt):\n    for b in loader:\n        model(b).sum().backward()\n"
        "        opt.step()\n        torch.cuda.empty_cache()\n"
    )
    code, out, err = run(["--no-cache", "--format", "json", "--select", selector, "train.py", "cache.py"], project)
    assert {f["code"] for f in json.loads(out)} == expected, err
    assert run(["--no-cache", "--select", "ML2", "train.py"], project)[0] == 2  # a prefix of no rule


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        (LEAKY_TRAIN.replace("opt.step()", "opt.step()  # \0"), "9:23", "source code cannot contain null bytes"),
        ("x = 1\ny = 'a\0b'\n", "2:7", "source code cannot contain null bytes"),  # no rule applies: the cheap check
        (LEAKY_TRAIN.replace("        losses.append(loss)", "\tlosses.append(loss)"), "10:1",
         "inconsistent use of tabs and spaces in indentation"),
    ],
    ids=["nul-in-training-code", "nul-elsewhere", "mixed-tabs"],
)
def test_a_syntax_error_points_at_its_line(tmp_path: Path, text: str, where: str, message: str) -> None:
    (tmp_path / "bad.py").write_text(text)
    code, out, _ = run(["--no-cache", "--output-format", "concise", "bad.py"], tmp_path)
    assert code == 1
    assert out.splitlines()[0] == f"bad.py:{where}: ML000 [syntax-error] SyntaxError: {message}"
