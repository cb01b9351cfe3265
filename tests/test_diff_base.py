"""Pull-request mode: `--diff-base REV` on real temporary git repositories."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from samples import LEAKY_TRAIN, git_env

from memlint.gitdiff import _unquote, parse_diff

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

NEW_LEAK = textwrap.dedent(
    """\


    def train_more(model, loader, opt):
        history = []
        for x, y in loader:
            loss = model(x).sum()
            loss.backward()
            history.append(loss)
        return history
    """
)  # appended to LEAKY_TRAIN: its `history.append(loss)` is line 19


class Repo:
    def __init__(self, path: Path, env: dict[str, str]) -> None:
        self.path, self.env = path, env
        path.mkdir(parents=True, exist_ok=True)
        self.git("init", "-q")
        self.git("checkout", "-q", "-b", "main")

    def git(self, *args: str) -> str:
        done = subprocess.run(
            ["git", "-c", "commit.gpgsign=false", *args], cwd=self.path, env=self.env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    def write(self, name: str, text: str) -> None:
        target = self.path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")

    def commit(self, message: str) -> None:
        self.git("add", "-A")
        self.git("commit", "-q", "-m", message)

    def memlint(self, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "memlint", "lint", "--no-cache", "--format", "json", *args],
            cwd=cwd or self.path,
            env=self.env,
            capture_output=True,
            text=True,
        )


def findings(done: subprocess.CompletedProcess[str]) -> list[tuple[str, int, str]]:
    assert done.returncode in (0, 1), done.stderr
    return sorted((Path(f["filename"]).as_posix(), f["location"]["row"], f["code"]) for f in json.loads(done.stdout))


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    """main: train.py with one leak and legacy.py with another; branch `feature` checked out."""
    repo = Repo(tmp_path / "repo", git_env(tmp_path))
    repo.write("train.py", LEAKY_TRAIN)
    repo.write("legacy.py", LEAKY_TRAIN)
    repo.write("README.md", "demo\n")
    repo.commit("initial")
    repo.git("checkout", "-q", "-b", "feature")
    return repo


def test_only_the_leak_the_branch_adds_is_reported(repo: Repo) -> None:
    repo.write("train.py", LEAKY_TRAIN + NEW_LEAK)
    repo.commit("add a second training loop")
    assert findings(repo.memlint(".")) == [("legacy.py", 10, "ML001"), ("train.py", 10, "ML001"), ("train.py", 19, "ML001")]

    done = repo.memlint("--diff-base", "main", ".")
    assert done.returncode == 1
    assert findings(done) == [("train.py", 19, "ML001")]


def test_text_output_and_no_changes(repo: Repo) -> None:
    done = repo.memlint("--diff-base", "main")
    assert findings(done) == [] and done.returncode == 0  # nothing changed: nothing to report
    repo.write("train.py", LEAKY_TRAIN + NEW_LEAK)
    repo.commit("leak")
    text = subprocess.run(
        [sys.executable, "-m", "memlint", "--no-cache", "--diff-base", "main"],
        cwd=repo.path, env=repo.env, capture_output=True, text=True,
    )
    assert text.returncode == 1 and "train.py:19:" in text.stdout and "train.py:10:" not in text.stdout


def test_merge_base_not_the_tip_of_rev(repo: Repo) -> None:
    """Leaks added on main after the branch point are main's, not the pull request's."""
    repo.git("checkout", "-q", "main")
    repo.write("legacy.py", LEAKY_TRAIN + NEW_LEAK)
    repo.commit("main moves on")
    repo.git("checkout", "-q", "feature")
    repo.write("train.py", LEAKY_TRAIN + NEW_LEAK)
    repo.commit("feature leak")
    repo.git("merge", "-q", "--no-edit", "main")  # legacy.py now has main's leak at line 19
    assert findings(repo.memlint("--diff-base", "main", ".")) == [("train.py", 19, "ML001")]


def test_work_tree_changes_and_untracked_files_count(repo: Repo) -> None:
    repo.write("train.py", LEAKY_TRAIN + NEW_LEAK)  # modified, not committed
    repo.write("pkg/new_module.py", LEAKY_TRAIN)  # untracked: every line is new
    repo.write("ignored/skip.py", LEAKY_TRAIN)
    repo.write(".gitignore", "ignored/\n")
    assert findings(repo.memlint("--diff-base", "main", ".")) == [
        ("pkg/new_module.py", 10, "ML001"),
        ("train.py", 19, "ML001"),
    ]


def test_modified_line_and_paths_filter(repo: Repo) -> None:
    repo.write("legacy.py", LEAKY_TRAIN.replace("losses.append(loss)", "losses.append(loss * 2)"))
    repo.write("train.py", LEAKY_TRAIN + NEW_LEAK)
    repo.commit("touch the old leak")
    assert findings(repo.memlint("--diff-base", "main", "legacy.py")) == [("legacy.py", 10, "ML001")]
    # Run from a subdirectory with a path into the repository.
    sub = repo.path / "sub"
    sub.mkdir()
    assert findings(repo.memlint("--diff-base", "main", "../train.py", cwd=sub)) == [("../train.py", 19, "ML001")]


def test_syntax_error_in_a_changed_file_is_always_reported(repo: Repo) -> None:
    repo.write("train.py", LEAKY_TRAIN + "\n\ndef broken(:\n    pass\n")
    done = repo.memlint("--diff-base", "main", ".")
    assert [code for _, _, code in findings(done)] == ["ML000"]


def test_outside_a_git_repository_is_a_clear_error(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "train.py").write_text(LEAKY_TRAIN, encoding="utf-8")
    env = git_env(tmp_path)
    env["GIT_CEILING_DIRECTORIES"] = str(tmp_path)  # in case the temporary directory lies inside a repository
    done = subprocess.run(
        [sys.executable, "-m", "memlint", "lint", "--diff-base", "main", "."],
        cwd=plain, env=env, capture_output=True, text=True,
    )
    assert done.returncode == 2
    assert "--diff-base needs a git repository" in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""


def test_unknown_revision_is_a_clear_error(repo: Repo) -> None:
    done = repo.memlint("--diff-base", "no-such-branch", ".")
    assert done.returncode == 2
    assert "unknown revision 'no-such-branch'" in done.stderr and "Traceback" not in done.stderr


def test_parse_diff_ignores_added_lines_that_look_like_headers() -> None:
    diff = (
        b"diff --git a/x.py b/x.py\n"
        b"index 1..2 100644\n"
        b"--- a/x.py\n"
        b"+++ b/x.py\n"
        b"@@ -3,0 +4,2 @@ def f():\n"
        b"++++ not/a/header.py\n"
        b"+y = 2\n"
        b"@@ -10 +11 @@\n"
        b"-a\n"
        b"+b\n"
        b"@@ -20,3 +21,0 @@\n"
        b"-gone\n"
        b"diff --git \"a/t\\tb.py\" \"b/t\\tb.py\"\n"
        b"--- \"a/t\\tb.py\"\n"
        b"+++ \"b/t\\tb.py\"\n"
        b"@@ -1 +1 @@\n"
        b"-x\n"
        b"+y\n"
        b"diff --git a/old.py b/old.py\n"
        b"deleted file mode 100644\n"
        b"--- a/old.py\n"
        b"+++ /dev/null\n"
        b"@@ -1 +0,0 @@\n"
        b"-x\n"
    )
    assert parse_diff(diff) == {"x.py": {4, 5, 11}, "t\tb.py": {1}}
    assert _unquote(b'"caf\\303\\251.py"') == "café.py".encode("utf-8")
