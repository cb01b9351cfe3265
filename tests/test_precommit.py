"""The pre-commit hooks, run by the real `pre-commit run` against this repository (the README's
configuration snippet, and one that names the hooks of the manifest), and by `pre-commit try-repo`.

pre-commit installs the hook repository into a virtual environment with pip
(PIP_* settings such as PIP_INDEX_URL or PIP_FIND_LINKS pass through), so
these tests need pre-commit and a reachable package index. `pre-commit run`
builds it once for this file's tests (one PRE_COMMIT_HOME); try-repo builds
its own each time.

The hook repository is a one-commit snapshot of this working tree (tracked and
untracked, non-ignored files): try-repo on the checkout itself would take HEAD
plus modified tracked files but miss new untracked ones, so the tests would
check something other than what is on disk.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pre_commit", reason="the test extra installs pre-commit")
pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

import yaml  # pre-commit's own dependency
from samples import LEAKY_TRAIN, LEAKY_TRAIN_FIXED, git_env

REPO = Path(__file__).resolve().parent.parent
PUBLIC_URL = "https://github.com/memlint/memlint"


def git(cwd: Path, env: dict[str, str], *args: str) -> str:
    done = subprocess.run(["git", "-c", "commit.gpgsign=false", *args], cwd=cwd, env=env, capture_output=True)
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    return done.stdout.decode("utf-8", "surrogateescape")


def source_files() -> list[str]:
    if (REPO / ".git").exists():
        listed = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=REPO, capture_output=True,
        )
        if listed.returncode == 0:
            names = listed.stdout.decode("utf-8", "surrogateescape").split("\0")
            return [name for name in names if name and (REPO / name).is_file()]
    # Not a checkout (an unpacked archive), or git refuses it: what installing and the manifest need.
    names = ["pyproject.toml", "README.md", ".pre-commit-hooks.yaml"]
    return names + [str(p.relative_to(REPO)) for p in (REPO / "memlint").rglob("*.py")]


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("home")
    snapshot = tmp_path_factory.mktemp("memlint-snapshot")
    for name in source_files():
        target = snapshot / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, target)
    env = git_env(home, PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INPUT="1", NO_COLOR="1")
    git(snapshot, env, "init", "-q", "-b", "main")  # the branch the README's snippet names
    git(snapshot, env, "add", "-A")
    git(snapshot, env, "commit", "-q", "--no-verify", "-m", "snapshot of the working tree")
    return snapshot


@pytest.fixture(scope="module")
def pre_commit_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """pre-commit's store for this file's `pre-commit run`s: the hooks' environment is built once."""
    return tmp_path_factory.mktemp("pre-commit-home")


@pytest.fixture
def project(tmp_path: Path, pre_commit_home: Path) -> tuple[Path, dict[str, str]]:
    """A git repository with one leaking training script, committed."""
    env = git_env(tmp_path, PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INPUT="1", NO_COLOR="1",
                  PRE_COMMIT_HOME=str(pre_commit_home))
    work = tmp_path / "project"
    work.mkdir()
    git(work, env, "init", "-q")
    (work / "train.py").write_text(LEAKY_TRAIN, encoding="utf-8")
    (work / "notes.txt").write_text("not python\n", encoding="utf-8")
    git(work, env, "add", "-A")
    git(work, env, "commit", "-q", "--no-verify", "-m", "initial")
    return work, env


def try_repo(hook_repo: Path, project: tuple[Path, dict[str, str]]) -> subprocess.CompletedProcess[str]:
    """`pre-commit try-repo`: every hook of the manifest, in an environment of its own."""
    work, env = project
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(hook_repo), "--all-files", "--color", "never"],
        cwd=work, env=env, capture_output=True, text=True, timeout=600,
    )


def run_hook(hook_repo: Path, project: tuple[Path, dict[str, str]], hook: str) -> subprocess.CompletedProcess[str]:
    """`pre-commit run HOOK` with a configuration that names every hook of the manifest (what
    try-repo writes), from the snapshot's `main`, as the README's snippet does."""
    work, env = project
    ids = [entry["id"] for entry in yaml.safe_load((hook_repo / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))]
    assert hook in ids, ids
    config = work.parent / "pre-commit-config.yaml"
    config.write_text(yaml.safe_dump({"repos": [{"repo": str(hook_repo), "rev": "main", "hooks": [{"id": i} for i in ids]}]}),
                      encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "run", hook, "--config", str(config), "--all-files", "--color", "never"],
        cwd=work, env=env, capture_output=True, text=True, timeout=600,
    )


def readme_precommit_config() -> str:
    """The README's `.pre-commit-config.yaml` snippet, verbatim."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    match = re.search(r"```yaml\n(# \.pre-commit-config\.yaml\n.*?)```", readme, re.S)
    assert match, "the README has no .pre-commit-config.yaml snippet"
    return match.group(1)


def test_readme_snippet_runs_the_lint_hook_from_main(hook_repo: Path, project) -> None:
    """`pre-commit run` with the README's configuration as written, its URL pointing at a local
    clone whose branch is the one the snippet names (the project has no release tags yet)."""
    work, env = project
    config = readme_precommit_config()
    assert "rev: main\n" in config
    assert config in (REPO / "docs" / "ci.md").read_text(encoding="utf-8")  # the docs show the same snippet
    (work / ".pre-commit-config.yaml").write_text(config.replace(PUBLIC_URL, str(hook_repo)), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "pre_commit", "run", "--all-files", "--color", "never"],
        cwd=work, env=env, capture_output=True, text=True, timeout=600,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    assert "memlint" in output and "Failed" in output
    assert "train.py:10:9: ML001" in output, output
    assert (project[0] / "train.py").read_text(encoding="utf-8") == LEAKY_TRAIN  # linting changes nothing


def test_lint_hook_prints_one_line_a_finding(hook_repo: Path, project) -> None:
    """pre-commit output is read in a terminal scroll: ruff's concise form, no help or fix lines."""
    done = run_hook(hook_repo, project, "memlint")
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    [finding] = [line for line in output.splitlines() if "ML001" in line]
    assert finding.startswith("train.py:10:9: ML001 [*] [retained-graph]"), output
    assert "help:" not in output and "fix (" not in output, output


def test_fix_hook_rewrites_the_file_then_a_second_run_passes(hook_repo: Path, project) -> None:
    work, _ = project
    done = run_hook(hook_repo, project, "memlint-fix")
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    assert "files were modified by this hook" in output, output
    fixed = (work / "train.py").read_text(encoding="utf-8")
    assert "losses.append(loss.detach())" in fixed, output
    assert fixed == LEAKY_TRAIN_FIXED

    again = try_repo(hook_repo, project)  # every hook in the manifest: memlint and memlint-fix
    output = again.stdout + again.stderr
    assert again.returncode == 0, output
    assert output.count("Passed") == 2, output


def test_fix_hook_fixes_a_notebook_in_its_cell(hook_repo: Path, tmp_path: Path, pre_commit_home: Path) -> None:
    env = git_env(tmp_path, PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INPUT="1", NO_COLOR="1",
                  PRE_COMMIT_HOME=str(pre_commit_home))
    work = tmp_path / "notebooks"
    work.mkdir()
    git(work, env, "init", "-q")
    notebook = REPO / "tests" / "notebooks" / "train.ipynb"
    shutil.copy(notebook, work / "train.ipynb")
    git(work, env, "add", "-A")
    git(work, env, "commit", "-q", "--no-verify", "-m", "initial")
    done = run_hook(hook_repo, (work, env), "memlint-fix")
    output = done.stdout + done.stderr
    assert "files were modified by this hook" in output, output
    expected = notebook.read_bytes().replace(b'"    losses.append(loss)\\n"', b'"    losses.append(loss.detach())\\n"')
    assert (work / "train.ipynb").read_bytes() == expected
