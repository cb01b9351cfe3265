"""The CI formats: GitHub workflow commands, SARIF 2.1.0, GitLab Code Quality, reviewdog rdjson."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import jsonschema
import pytest
import yaml
from click.testing import CliRunner
from samples import LEAKY_TRAIN, SARIF_SCHEMA

from memlint.cli import main
from memlint.formats import Report, github, names
from memlint.models import Finding, Position, Severity
from memlint.rules import ALL_RULES

REPO = Path(__file__).resolve().parent.parent

TRAIN = LEAKY_TRAIN
LEAK = "        losses.append(loss)"  # line 10 of TRAIN, a warning

EVALUATE = textwrap.dedent(
    """\


    def evaluate(model, loader):
        model.eval()
        outs = []
        for x, y in loader:
            outs.append(model(x))
        return outs
    """
)  # appended to TRAIN: an ML001 error and an ML003 warning on the `outs.append` line


def run_cli(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[int, str]:
    runner = CliRunner()
    old = os.getcwd()
    os.chdir(cwd)
    try:
        result = runner.invoke(main, ["lint", "--no-cache", *args], env=env, catch_exceptions=False)
    finally:
        os.chdir(old)
    return result.exit_code, result.output


def finding(index: int, severity: Severity, filename: str = "train.py", message: str = "kept") -> Finding:
    return Finding(
        code="ML001",
        name="retained-graph",
        message=f"{message} {index}",
        severity=severity,
        filename=filename,
        location=Position(index + 1, 5),
        end_location=Position(index + 1, 9),
    )


def test_formats_are_registered() -> None:
    assert {"text", "json", "github", "sarif", "gitlab", "rdjson"} <= set(names())


# --- GitHub workflow commands ------------------------------------------------------------------


def test_github_escapes_the_file_property(tmp_path: Path) -> None:
    (tmp_path / "a,b%x:y.py").write_text(TRAIN, encoding="utf-8")
    code, out = run_cli(["--format", "github", "a,b%x:y.py"], tmp_path)
    assert code == 1
    lines = [line for line in out.splitlines() if line.startswith("::")]
    assert len(lines) == 1
    assert lines[0].startswith(
        "::warning file=a%2Cb%25x%3Ay.py,line=10,endLine=10,col=9,endColumn=28,title=ML001 retained-graph::"
    ), lines[0]
    message = lines[0].split("::", 2)[2]
    assert "\n" not in message and "%0Ahelp: store `loss.detach()`" in message


def test_github_escapes_messages_and_properties() -> None:
    assert github.escape_data("50% done\r\nnext: a,b") == "50%25 done%0D%0Anext: a,b"
    assert github.escape_property("50% done\r\nnext: a,b") == "50%25 done%0D%0Anext%3A a%2Cb"
    # `%` is escaped first, so an already escaped-looking value survives the round trip.
    assert github.escape_property("%3A,%0A") == "%253A%2C%250A"
    weird = Finding(
        code="ML003",
        name="eval-without-no-grad",
        message="first line\nsecond line 100%",
        severity=Severity.ERROR,
        filename="dir,1/x:y.py",
        location=Position(3, 1),
        end_location=Position(4, 2),
        hint="a: b, c",
    )
    line = github.annotation(weird, "dir,1/x:y.py")  # columns only on one-line ranges: the runner drops them
    assert line == (
        "::error file=dir%2C1/x%3Ay.py,line=3,endLine=4,title=ML003 eval-without-no-grad"
        "::first line%0Asecond line 100%25%0Ahelp: a: b, c"
    )


def _overflow_report(tmp_path: Path) -> Report:
    findings = [finding(i, Severity.WARNING) for i in range(12)] + [finding(100 + i, Severity.ERROR) for i in range(15)]
    return Report(findings=findings, root=str(tmp_path))


def test_github_overflow_most_severe_first_and_step_summary(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n", encoding="utf-8")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    import io

    stream = io.StringIO()
    github.write(_overflow_report(tmp_path), stream)
    lines = stream.getvalue().splitlines()
    annotations = [line for line in lines if line.startswith("::")]
    assert [line.split(" ", 1)[0] for line in annotations] == ["::error"] * 10 + ["::warning"] * 10
    # The 5 errors and 2 warnings past GitHub's limit are still in the log, as plain lines.
    plain = [line for line in lines if re.match(r"train\.py:\d+:\d+: ML001", line)]
    assert len(plain) == 7
    assert "memlint: 7 of 27 findings were not annotated" in stream.getvalue()
    assert "step summary" in stream.getvalue()

    text = summary.read_text(encoding="utf-8")
    assert text.startswith("earlier step\n")  # appended, never overwritten
    rows = [line for line in text.splitlines() if line.startswith("| ") and "ML001" in line]
    assert len(rows) == 27
    assert rows[0].startswith("| error |") and rows[-1].startswith("| warning |")
    assert "| severity | code | rule | location | message |" in text


def test_github_step_summary_links_to_the_code(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    monkeypatch.setenv("GITHUB_SERVER_URL", "https://github.com")
    monkeypatch.setenv("GITHUB_REPOSITORY", "acme/trainer")
    monkeypatch.setenv("GITHUB_SHA", "0123abc")
    import io

    report = _overflow_report(tmp_path)
    report.findings.append(finding(7, Severity.WARNING, message="a | pipe"))
    github.write(report, io.StringIO())
    text = summary.read_text(encoding="utf-8")
    assert "(https://github.com/acme/trainer/blob/0123abc/train.py#L101)" in text
    assert "a \\| pipe 7" in text


def test_github_no_overflow_no_summary(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    import io

    stream = io.StringIO()
    findings = [finding(i, Severity.ERROR) for i in range(10)] + [finding(50 + i, Severity.WARNING) for i in range(10)]
    github.write(Report(findings=findings, root=str(tmp_path)), stream)
    assert stream.getvalue().count("\n::") + stream.getvalue().startswith("::") == 20
    assert "not annotated" not in stream.getvalue()
    assert not summary.exists()


def test_github_overflow_from_the_cli(tmp_path: Path) -> None:
    body = "".join(
        f"\n\ndef train_{i}(model, loader, opt):\n    losses = []\n    for x, y in loader:\n"
        f"        loss = model(x).sum()\n        loss.backward()\n        losses.append(loss)\n    return losses\n"
        for i in range(12)
    )
    (tmp_path / "many.py").write_text("import torch\n" + body, encoding="utf-8")
    summary = tmp_path / "summary.md"
    code, out = run_cli(["--format", "github", "many.py"], tmp_path, env={"GITHUB_STEP_SUMMARY": str(summary)})
    assert code == 1
    assert out.count("::warning file=many.py,") == 10
    assert "memlint: 2 of 12 findings were not annotated" in out
    assert sum(1 for line in summary.read_text().splitlines() if "| ML001 |" in line) == 12


# --- SARIF ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sarif_validator() -> jsonschema.protocols.Validator:
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    # No check_schema(): the official file has a known slip (an `anyOf` inside region's `properties`).
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def sarif_of(tmp_path: Path, *paths: str) -> dict:
    code, out = run_cli(["--format", "sarif", *paths], tmp_path)
    assert code in (0, 1), out
    return json.loads(out)


def test_sarif_validates_with_results(tmp_path: Path, sarif_validator) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "train.py").write_text(TRAIN + EVALUATE, encoding="utf-8")
    (tmp_path / "pkg" / "broken.py").write_text("def f(:\n", encoding="utf-8")
    log = sarif_of(tmp_path, ".")
    sarif_validator.validate(log)

    assert log["version"] == "2.1.0" and log["$schema"].endswith("sarif-schema-2.1.0.json")
    (run,) = log["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "memlint" and driver["version"] and driver["informationUri"].startswith("https://")
    ids = [rule["id"] for rule in driver["rules"]]
    assert set(ids) == {"ML000", "ML900", "ML100"} | {rule.code for rule in ALL_RULES}
    for rule in ALL_RULES:
        entry = driver["rules"][ids.index(rule.code)]
        assert entry["name"] == rule.name
        assert entry["shortDescription"]["text"] == rule.summary
        assert entry["fullDescription"]["text"]
        assert entry["help"]["markdown"] == rule.documentation() and entry["help"]["text"]
        assert entry["defaultConfiguration"]["level"] == rule.severity.value
    for entry in driver["rules"]:  # helpUri: the rule's page of the documentation site (tests/test_docs.py: it exists)
        assert entry["helpUri"] == f"https://memlint.github.io/memlint/rules/{entry['name']}/"
    assert run["columnKind"] == "unicodeCodePoints"

    results = run["results"]
    assert {(r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in results} == {
        ("ML000", 1),
        ("ML001", 10),
        ("ML001", 18),
        ("ML003", 18),
    }
    for result in results:
        assert driver["rules"][result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["level"] in ("error", "warning")
        assert result["message"]["text"]
        (location,) = result["locations"]
        artifact = location["physicalLocation"]["artifactLocation"]
        assert artifact["uriBaseId"] == "%SRCROOT%"
        assert artifact["uri"] in ("pkg/train.py", "pkg/broken.py")
        region = location["physicalLocation"]["region"]
        assert region["startLine"] >= 1 and region["startColumn"] >= 1
        assert (region["endLine"], region["endColumn"]) >= (region["startLine"], region["startColumn"])
        assert set(result["partialFingerprints"]) == {"memlint/v1"}
    levels = {(r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"]): r["level"] for r in results}
    assert levels[("ML000", 1)] == "error" and levels[("ML001", 10)] == "warning"
    fixed = [r for r in results if r.get("fixes")]
    assert fixed, "safe fixes are carried as SARIF fixes"


def test_sarif_validates_with_no_results(tmp_path: Path, sarif_validator) -> None:
    (tmp_path / "clean.py").write_text("import torch\n\nx = torch.zeros(3)\n", encoding="utf-8")
    log = sarif_of(tmp_path, "clean.py")
    sarif_validator.validate(log)
    assert log["runs"][0]["results"] == []
    assert len(log["runs"][0]["tool"]["driver"]["rules"]) == len(ALL_RULES) + 3  # and ML000, ML900, ML100


def test_sarif_uri_is_repository_relative_and_percent_encoded(tmp_path: Path, sarif_validator) -> None:
    (tmp_path / ".git").mkdir()  # the repository root, above the linted project
    project = tmp_path / "sub project"
    project.mkdir()
    (project / "a,b%x:y.py").write_text(TRAIN, encoding="utf-8")
    log = sarif_of(project, "a,b%x:y.py")
    sarif_validator.validate(log)
    (result,) = log["runs"][0]["results"]
    artifact = result["locations"][0]["physicalLocation"]["artifactLocation"]
    assert artifact == {"uri": "sub%20project/a%2Cb%25x%3Ay.py", "uriBaseId": "%SRCROOT%"}
    assert log["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"].endswith("/")


# --- fingerprints -----------------------------------------------------------------------------


def _prints(tmp_path: Path, fmt: str = "sarif") -> dict[tuple[str, int], str]:
    code, out = run_cli(["--format", fmt, "train.py"], tmp_path)
    data = json.loads(out)
    if fmt == "gitlab":
        return {(i["check_name"], i["location"]["lines"]["begin"]): i["fingerprint"] for i in data}
    return {
        (r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"]): r["partialFingerprints"]["memlint/v1"]
        for r in data["runs"][0]["results"]
    }


def test_fingerprints_stay_stable_when_unrelated_lines_move(tmp_path: Path) -> None:
    path = tmp_path / "train.py"
    path.write_text(TRAIN + EVALUATE, encoding="utf-8")
    before = _prints(tmp_path)
    assert len(before) == 3 and len(set(before.values())) == 3

    shifted = "# a new header comment\nimport os\n\n\n" + TRAIN.replace("def train", "def helper():\n    return 1\n\n\ndef train") + EVALUATE
    path.write_text(shifted, encoding="utf-8")
    after = _prints(tmp_path)
    assert set(after) != set(before)  # the lines moved...
    assert sorted(after.values()) == sorted(before.values())  # ...the fingerprints did not

    # GitLab uses the same fingerprints.
    assert sorted(_prints(tmp_path, "gitlab").values()) == sorted(before.values())

    # Changing the flagged line itself gives a new fingerprint for that finding only.
    path.write_text(shifted.replace("losses.append(loss)", "losses.append(loss)  # keep"), encoding="utf-8")
    edited = _prints(tmp_path)
    assert len(set(edited.values()) & set(before.values())) == 2


def test_identical_findings_get_distinct_fingerprints(tmp_path: Path) -> None:
    twice = TRAIN + "\n\n" + TRAIN.split("\n\n\n", 1)[1].replace("def train", "def train_again")
    (tmp_path / "train.py").write_text(twice, encoding="utf-8")
    prints = _prints(tmp_path)
    assert len(prints) == 2 and len(set(prints.values())) == 2


# --- GitLab Code Quality and reviewdog --------------------------------------------------------


def test_gitlab_code_quality(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "train.py").write_text(TRAIN + EVALUATE, encoding="utf-8")
    code, out = run_cli(["--format", "gitlab", "."], tmp_path / "src")
    assert code == 1
    issues = json.loads(out)
    assert len(issues) == 3
    for issue in issues:
        assert {"description", "check_name", "fingerprint", "severity", "location"} <= set(issue)
        assert issue["location"]["path"] == "src/train.py"
        assert issue["severity"] in ("info", "minor", "major", "critical", "blocker")
        assert isinstance(issue["location"]["lines"]["begin"], int)
    assert len({issue["fingerprint"] for issue in issues}) == 3
    by_line = {(i["check_name"], i["location"]["lines"]["begin"]): i["severity"] for i in issues}
    assert by_line[("ML001", 10)] == "minor" and by_line[("ML001", 18)] == "major"


def test_gitlab_empty_report_is_an_empty_array(tmp_path: Path) -> None:
    (tmp_path / "clean.py").write_text("x = 1\n", encoding="utf-8")
    code, out = run_cli(["--format", "gitlab", "clean.py"], tmp_path)
    assert code == 0 and json.loads(out) == []


def test_rdjson_with_suggestions_and_byte_columns(tmp_path: Path) -> None:
    source = TRAIN.replace("        losses.append(loss)", '        _ = "é"; losses.append(loss)')
    (tmp_path / "train.py").write_text(source, encoding="utf-8")
    code, out = run_cli(["--format", "rdjson", "train.py"], tmp_path)
    assert code == 1
    data = json.loads(out)
    assert data["source"]["name"] == "memlint"
    (diagnostic,) = data["diagnostics"]
    assert diagnostic["code"]["value"] == "ML001" and diagnostic["severity"] == "WARNING"
    assert diagnostic["code"]["url"] == "https://memlint.github.io/memlint/rules/retained-graph/"
    assert diagnostic["location"]["path"] == "train.py"
    # `losses` starts at character 18 but byte 19: "é" is two bytes in UTF-8.
    assert diagnostic["location"]["range"]["start"] == {"line": 10, "column": 19}
    (suggestion,) = diagnostic["suggestions"]
    assert suggestion["text"] == "loss.detach()"
    line = source.splitlines()[9].encode("utf-8")
    start, end = suggestion["range"]["start"]["column"], suggestion["range"]["end"]["column"]
    assert line[start - 1 : end - 1] == b"loss"


# --- the GitHub Action and the hook manifest ---------------------------------------------------


def test_action_passes_its_inputs_to_memlint(tmp_path: Path) -> None:
    """Run the action's own `run:` script with a stand-in for the installed memlint."""
    action = yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))
    assert set(action["inputs"]) >= {"paths", "format", "diff-base", "args"}
    assert action["runs"]["using"] == "composite"
    install, run = action["runs"]["steps"]
    assert "github.action_path" in install["env"]["MEMLINT_SOURCE"]
    shim = tmp_path / "memlint"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m memlint "$@"\n', encoding="utf-8")
    shim.chmod(0o755)
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "train.py").write_text(TRAIN, encoding="utf-8")
    (tmp_path / "clean.py").write_text("x = 1\n", encoding="utf-8")
    env = dict(
        os.environ,
        MEMLINT_BIN=str(shim),
        MEMLINT_PATHS="clean.py  src",
        MEMLINT_FORMAT="github",
        MEMLINT_DIFF_BASE="",
        MEMLINT_ARGS="--no-cache --select ML001",
    )
    env.pop("GITHUB_STEP_SUMMARY", None)
    done = subprocess.run(["bash", "-c", run["run"]], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 1, done.stderr
    assert "::warning file=src/train.py,line=10," in done.stdout
    assert "clean.py" not in done.stdout


def test_pre_commit_hook_manifest() -> None:
    hooks = {hook["id"]: hook for hook in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())}
    assert set(hooks) == {"memlint", "memlint-fix"}
    for hook in hooks.values():
        assert hook["language"] == "python"
        assert hook["types_or"] == ["python", "pyi", "jupyter"]
        assert hook["require_serial"] is True
        assert hook["entry"].startswith("memlint")
    assert "--fix" in hooks["memlint-fix"]["entry"] and "--fix" not in hooks["memlint"]["entry"]
    config = yaml.safe_load((REPO / ".pre-commit-config.yaml").read_text())
    local = [hook for repo in config["repos"] for hook in repo["hooks"] if hook["id"] == "memlint"]
    assert local and re.match(local[0]["exclude"], "test_cases/ML001_retained_graph/bad_x.py")


def test_force_exclude_applies_the_configuration_to_named_files(tmp_path: Path) -> None:
    """pre-commit names every staged file; `--force-exclude` keeps `exclude` in force for them."""
    root = tmp_path / "build"  # a project root named like a default exclude must not exclude itself
    (root / "legacy").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[tool.memlint]\nextend-exclude = ["legacy"]\n', encoding="utf-8")
    (root / "legacy" / "old.py").write_text(TRAIN, encoding="utf-8")
    (root / "train.py").write_text(TRAIN, encoding="utf-8")
    code, out = run_cli(["--format", "json", "legacy/old.py", "train.py"], root)
    assert sorted(f["filename"] for f in json.loads(out)) == ["legacy/old.py", "train.py"]
    code, out = run_cli(["--format", "json", "--force-exclude", "legacy/old.py", "train.py"], root)
    assert code == 1 and [f["filename"] for f in json.loads(out)] == ["train.py"]


def test_documented_workflows_name_an_existing_ref_and_the_actions_inputs() -> None:
    """The workflow of the CI page and the step of the README, checked offline: each memlint step
    names the main branch (the project has no release tags yet) and passes only inputs that
    action.yml declares."""
    ci_page = (REPO / "docs" / "ci.md").read_text(encoding="utf-8")
    block = re.search(r"```yaml\n(# \.github/workflows/memlint\.yml\n.*?)```", ci_page, re.S)
    assert block, "docs/ci.md has no workflow snippet"
    steps = [step for job in yaml.safe_load(block.group(1))["jobs"].values() for step in job["steps"]]
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    readme_step = re.search(r"```yaml\n(# a step of a job.*?)```", readme, re.S)
    assert readme_step, "the README has no GitHub Actions step"
    steps += yaml.safe_load(readme_step.group(1))
    inputs = set(yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))["inputs"])
    ours = [step for step in steps if step.get("uses", "").startswith("memlint/memlint@")]
    assert len(ours) == 3
    for step in ours:
        assert step["uses"] == "memlint/memlint@main"
        assert set(step.get("with", {})) <= inputs
