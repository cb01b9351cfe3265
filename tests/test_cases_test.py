"""Every file under test_cases/ must produce exactly the findings its `# expect:` markers name, and
those its `# preview:` markers name with `--preview` only (a finding that rests on an assumption
about code out of sight, which a default run hides).

A notebook's markers are read from its code cells joined into one program,
whose rows are the rows its findings carry (memlint/notebook.py).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from memlint.cli import main
from memlint.engine import lint_path, read_source
from memlint.rules import ALL_RULES

CASES = Path(__file__).resolve().parent.parent / "test_cases"
EXPECT = re.compile(r"#\s*expect:\s*([A-Z0-9, ]+)")
PREVIEW = re.compile(r"\bpreview:\s*([A-Z0-9, ]+)")
ALL_CODES = [r.code for r in ALL_RULES] + ["ML000"]


def expected_findings(path: Path, marker: re.Pattern[str] = EXPECT) -> set[tuple[int, str]]:
    expected = set()
    for row, line in enumerate(read_source(str(path)).text.splitlines(), start=1):
        match = marker.search(line)
        if match:
            expected.update((row, code.strip()) for code in match.group(1).split(",") if code.strip())
    return expected


def case_files() -> list[Path]:
    files = [*CASES.rglob("*.py"), *CASES.rglob("*.ipynb")]
    return sorted(
        p
        for p in files
        if not p.name.endswith((".fixed.py", ".fixed.ipynb"))
        and not any(folder.name.startswith("project_") for folder in p.relative_to(CASES).parents)
    )


def project_folders() -> list[Path]:
    """`<rule folder>/project_*/`: files linted together, as one project (findings across files)."""
    return sorted(p for p in CASES.glob("*/project_*") if p.is_dir())


@pytest.mark.parametrize("path", case_files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_case(path: Path) -> None:
    result = lint_path(str(path), ALL_CODES)
    assert not result.errors, result.errors
    listing = "\n".join(f"{f.location.row}: {f.code} {f.message} {f.hint}" for f in result.findings)
    actual = {(f.location.row, f.code) for f in result.findings if not f.extra.get("assumptions")}
    assert actual == expected_findings(path), listing
    assumed = {(f.location.row, f.code) for f in result.findings if f.extra.get("assumptions")}
    assert assumed == expected_findings(path, PREVIEW), listing
    for finding in result.findings:
        assert_short_message(finding)


@pytest.mark.parametrize("folder", project_folders(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_project_case(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A project folder's files, linted together, give exactly the findings their markers name."""
    monkeypatch.chdir(folder)
    files = {p.relative_to(folder).as_posix(): p for p in sorted(folder.rglob("*.py"))}  # (also of its packages)
    expected = {(name, row, code) for name, p in files.items() for row, code in expected_findings(p)}
    previewed = {(name, row, code) for name, p in files.items() for row, code in expected_findings(p, PREVIEW)}
    for flags, wanted in (((), expected), (("--preview",), expected | previewed)):
        args = ["--format", "json", "--no-cache", "--select", "ALL", *flags, "."]
        result = CliRunner().invoke(main, args, catch_exceptions=False)
        assert result.exit_code in (0, 1), result.output
        findings = [SimpleNamespace(**f) for f in json.loads(result.stdout)]
        actual = {(Path(f.filename).as_posix(), f.location["row"], f.code) for f in findings}
        assert actual == wanted, "\n".join(f"{f.filename}:{f.location['row']}: {f.code} {f.message}" for f in findings)
        for finding in findings:
            assert_short_message(finding)


EVIDENCE = re.compile(r"measured|\bissue \d|\bPR \d|\d(\.\d+)?x slower|MiB|GB")
STATED_SIZE = re.compile(r"about \d+(\.\d+)? (KiB|MiB|GiB)")


def assert_short_message(finding) -> None:
    """A message is one short sentence; what was measured, and where, goes on the help line."""
    text = re.sub(r"`[^`]*`", "`…`", finding.message)  # quoted code is as long as the user wrote it
    text = STATED_SIZE.sub("about …", text)  # the size the code states is the message's, not evidence
    assert len(text) <= 140, finding.message
    assert ";" not in text and ". " not in text, finding.message
    assert not EVIDENCE.search(text), finding.message
    assert finding.hint, finding


def test_every_rule_has_enough_cases() -> None:
    for rule in ALL_RULES:
        folder = CASES / f"{rule.code}_{rule.name.replace('-', '_')}"
        bad = list(folder.glob("bad_*.py"))
        good = list(folder.glob("good_*.py"))
        assert len(bad) >= 6 and len(good) >= 6, (rule.code, len(bad), len(good))
        for path in bad:
            shown = expected_findings(path) | expected_findings(path, PREVIEW)
            assert any(code == rule.code for _, code in shown), path
