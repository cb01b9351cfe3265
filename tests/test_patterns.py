"""`exclude`, `include` and `per-file-ignores` patterns: gitignore-style globs (pathspec), checked
against git's own answer for the same pattern and path."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from memlint.patterns import matches_any

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
def test_exclude_patterns_match_what_git_ignores(tmp_path: Path, pattern: str, git_says) -> None:
    for path in PATHS:
        assert matches_any(str(tmp_path / path), [pattern], tmp_path) == git_says(pattern, path), (pattern, path)


def test_star_stays_within_a_directory_and_double_star_crosses_them(tmp_path: Path) -> None:
    assert matches_any(str(tmp_path / "src/a.py"), ["src/*.py"], tmp_path)
    assert not matches_any(str(tmp_path / "src/deep/b.py"), ["src/*.py"], tmp_path)
    assert matches_any(str(tmp_path / "src/deep/b.py"), ["src/**/*.py"], tmp_path)


def test_include_names_files_not_the_contents_of_directories(tmp_path: Path) -> None:
    assert matches_any(str(tmp_path / "tools/run.pyw"), ["tools/*.pyw"], tmp_path, contents=False)
    assert not matches_any(str(tmp_path / "tools/sub/notes.txt"), ["tools/*"], tmp_path, contents=False)
    assert matches_any(str(tmp_path / "tools/sub/notes.txt"), ["tools/*"], tmp_path)  # an exclude covers it


def test_absolute_patterns_and_paths_outside_the_project(tmp_path: Path) -> None:
    root = tmp_path / "project"
    outside = tmp_path / "build" / "elsewhere" / "x.py"
    assert matches_any(str(outside), [str(tmp_path / "build")], root)
    assert not matches_any(str(outside), ["build"], root)  # a parent's name outside the project does not count
    assert matches_any(str(outside), ["x.py"], root)  # a base name does
