"""`exclude`, `include` and `per-file-ignores` patterns: gitignore-style globs (pathspec), checked
against git's own answer for the same pattern and path, and a directory named on the command line
inside an excluded one still linted."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from memlint.config import DEFAULT_EXCLUDE
from memlint.patterns import _matches, matches_any

PATHS = [
    "build/x.py",
    "src/build/x.py",
    "train_a.py",
    "sub/train_b.py",
    "tests/a.py",
    "tests/unit/b.py",
    "pkg/tests/c.py",
    "src/a.py",
    "src/deep/b.py",
    "scripts/legacy/old.py",
    "foo.egg-info/x.py",
]
PATTERNS = ["build", "build/", "train*.py", "tests/*", "**/tests/*", "src/*.py", "src/**/*.py", "scripts/legacy", "*.egg-info", "tests/**"]


@pytest.fixture(scope="module")
def git_says(tmp_path_factory: pytest.TempPathFactory):
    """Whether git ignores `path` with `pattern` as its only .gitignore line."""
    repo = tmp_path_factory.mktemp("repo")
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)

    def ignored(pattern: str, path: str) -> bool:
        (repo / ".gitignore").write_text(pattern + "\n")
        done = subprocess.run(["git", "check-ignore", "-q", "--no-index", path], cwd=repo)
        return done.returncode == 0

    return ignored


@pytest.mark.parametrize("pattern", PATTERNS)
def test_per_file_ignores_patterns_match_what_git_ignores(tmp_path: Path, pattern: str, git_says) -> None:
    for path in PATHS:
        assert matches_any(str(tmp_path / path), [pattern], tmp_path, contents=True) == git_says(pattern, path), (pattern, path)


def test_star_stays_within_a_directory_and_double_star_crosses_them(tmp_path: Path) -> None:
    assert matches_any(str(tmp_path / "src/a.py"), ["src/*.py"], tmp_path, contents=True)
    assert not matches_any(str(tmp_path / "src/deep/b.py"), ["src/*.py"], tmp_path, contents=True)
    assert matches_any(str(tmp_path / "src/deep/b.py"), ["src/**/*.py"], tmp_path, contents=True)


def test_without_contents_only_the_path_itself_counts(tmp_path: Path) -> None:
    """A walk prunes excluded directories itself; `include` names files."""
    assert matches_any(str(tmp_path / "tools/run.pyw"), ["tools/*.pyw"], tmp_path)
    assert not matches_any(str(tmp_path / "tools/sub/notes.txt"), ["tools/*"], tmp_path)
    assert not matches_any(str(tmp_path / "build/x.py"), ["build"], tmp_path)
    assert matches_any(str(tmp_path / "tools/sub/notes.txt"), ["tools/*"], tmp_path, contents=True)


@pytest.mark.parametrize("pattern", [*DEFAULT_EXCLUDE, "x.py", "*.py", "*_a.py", "-x", "..."])
def test_a_plain_name_matches_as_pathspec_matches_it(tmp_path: Path, pattern: str) -> None:
    """The walk's excludes (`build`, `*.egg-info`) are compared with the path's last part directly:
    the answer pathspec gives for the path itself, for files and directories at any depth."""
    paths = [*PATHS, "build", "src/build", "a/.venv", "a/.venvs", "pkg.egg-info", "x.py/y", "a/-x", "...", "a/x..."]
    for path in paths:
        assert matches_any(str(tmp_path / path), [pattern], tmp_path) == _matches(pattern, path, False), (pattern, path)


def test_absolute_patterns_and_paths_outside_the_project(tmp_path: Path) -> None:
    root = tmp_path / "project"
    outside = tmp_path / "build" / "elsewhere" / "x.py"
    assert matches_any(str(outside), [str(tmp_path / "build")], root)
    assert not matches_any(str(outside), ["build"], root)  # a parent's name outside the project does not count
    assert matches_any(str(outside), ["x.py"], root)  # a base name does


def test_a_directory_named_inside_an_excluded_one_is_still_linted(tmp_path: Path) -> None:
    """ruff's rule: excludes prune a walk; what the command line names is linted (unless --force-exclude)."""
    import os
    import sys

    from samples import LEAKY_TRAIN

    (tmp_path / "pyproject.toml").write_text('[tool.memlint]\nextend-exclude = ["examples"]\n')
    case = tmp_path / "examples" / "one"
    case.mkdir(parents=True)
    (case / "train.py").write_text(LEAKY_TRAIN)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}

    def files(*args: str, cwd: Path) -> list[str]:
        done = subprocess.run([sys.executable, "-m", "memlint", "--show-files", *args], cwd=cwd, env=env, capture_output=True, text=True)
        return done.stdout.splitlines()

    assert files(".", cwd=tmp_path) == []
    assert files(".", cwd=case) == ["./train.py"]
    assert files("--force-exclude", ".", cwd=case) == []
