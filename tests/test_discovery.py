"""Which files a directory walk lints: git's ignore rules through pathspec, and `--show-files`."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from memlint.cli import main

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

PY = "x = 1\n"


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty git work tree, with the user's git configuration and XDG home isolated."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(home / "gitconfig"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    work = tmp_path / "work"
    work.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=work, check=True)
    # No default excludes (`build`, ...): only git's rules decide.
    (work / "pyproject.toml").write_text('[tool.memlint]\nexclude = [".git"]\n')
    monkeypatch.chdir(work)
    return work


def make(root: Path, *names: str) -> None:
    for name in names:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(PY)


def shown(*args: str) -> list[str]:
    result = CliRunner().invoke(main, ["--show-files", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return [Path(line).as_posix() for line in result.stdout.splitlines()]


def test_anchored_pattern_only_at_its_gitignore(repo: Path) -> None:
    make(repo, "data/a.py", "src/data/b.py")
    (repo / ".gitignore").write_text("/data\n")
    assert shown(".") == ["src/data/b.py"]


def test_character_class_directory_pattern(repo: Path) -> None:
    make(repo, "Build/a.py", "build/b.py", "src/build/c.py", "build.py", "rebuild/d.py")
    (repo / ".gitignore").write_text("[Bb]uild/\n")
    assert shown(".") == ["build.py", "rebuild/d.py"]


def test_negation_and_escapes(repo: Path) -> None:
    make(repo, "gen_a.py", "gen_keep.py", "#notes.py", "other.py")
    (repo / ".gitignore").write_text("# a comment\ngen_*.py\n!gen_keep.py\n\\#notes.py\n")
    assert shown(".") == ["gen_keep.py", "other.py"]


def test_a_directory_named_on_the_command_line_is_walked_even_where_git_ignores_it(repo: Path) -> None:
    make(repo, "vendor/pkg/a.py", "vendor/pkg/b_tmp.py", "c.py")
    (repo / ".gitignore").write_text("vendor/\n*_tmp.py\n")
    assert shown(".") == ["c.py"]
    # As ruff: named, the folder is linted; the patterns that match inside it still apply.
    assert shown("vendor") == ["vendor/pkg/a.py"]
    assert shown("vendor/pkg") == ["vendor/pkg/a.py"]


def test_nested_gitignores_override_their_parents(repo: Path) -> None:
    make(repo, "a_tmp.py", "local.py", "sub/keep_tmp.py", "sub/x_tmp.py", "sub/local.py", "other/local.py")
    (repo / ".gitignore").write_text("*_tmp.py\n")
    (repo / "sub" / ".gitignore").write_text("!keep_tmp.py\nlocal.py\n")
    assert shown(".") == ["local.py", "other/local.py", "sub/keep_tmp.py"]
    # Walking from inside the tree still reads the .gitignore files above it.
    assert shown("sub") == ["sub/keep_tmp.py"]


def test_info_exclude_and_the_global_excludes_file(repo: Path, tmp_path: Path) -> None:
    make(repo, "a.py", "scratch/b.py", "notes_local.py", "mine.py")
    (repo / ".git" / "info").mkdir(exist_ok=True)
    (repo / ".git" / "info" / "exclude").write_text("scratch/\n")
    xdg_ignore = Path(os.environ["XDG_CONFIG_HOME"]) / "git" / "ignore"
    xdg_ignore.parent.mkdir(parents=True)
    xdg_ignore.write_text("*_local.py\n")  # git's default global excludes file
    assert shown(".") == ["a.py", "mine.py"]
    # core.excludesFile replaces the default, and the repository's .gitignore outranks it.
    custom = tmp_path / "my-excludes"
    custom.write_text("mine.py\na.py\n")
    subprocess.run(["git", "config", "--global", "core.excludesFile", str(custom)], check=True)
    (repo / ".gitignore").write_text("!a.py\n")
    assert shown(".") == ["a.py", "notes_local.py"]


def test_show_files_lists_named_files_and_applies_force_exclude(repo: Path) -> None:
    make(repo, "train.py", "legacy/old.py")
    (repo / "pyproject.toml").write_text('[tool.memlint]\nexclude = [".git", "legacy"]\n')
    assert shown(".") == ["train.py"]
    assert shown("legacy/old.py", "train.py") == ["legacy/old.py", "train.py"]  # named: linted
    assert shown("--force-exclude", "legacy/old.py", "train.py") == ["train.py"]
