"""Fill benchmarks/mined/src/ with the Python trees of every mined bug, before and at its fix.

    python benchmarks/mined/fetch.py [--mirrors DIR] [--clone]

For every bug of manifest_*.json, writes the repository's `*.py` and `*.ipynb`
files at the commit before the fix and at the fixing commit to
src/trees/<owner>+<name>/<commit>/ (one tree per commit, shared by the bugs of
that commit). The text comes from `git archive` of a git mirror of the
repository, found as benchmarks/real_bugs/fetch.py finds it (the search tool's
`<mirrors>/<owner>+<name>/repo`, or a blob-less clone with `--clone`). The
folder is git-ignored: third-party code is never committed, only the manifests
that say where to read it.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tarfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from real_bugs.fetch import git_dir  # noqa: E402

SRC = HERE / "src"
TREES = SRC / "trees"
SUFFIXES = (".py", ".ipynb")


def load_bugs() -> list[dict]:
    """Every bug of every manifest (manifest_a.json, manifest_b.json, ...), in file order, each fixed file once."""
    bugs: dict[tuple[str, str, str], dict] = {}
    for manifest in sorted(HERE.glob("manifest_*.json")):
        for bug in json.loads(manifest.read_text(encoding="utf-8"))["bugs"]:
            # the two manifests are mined apart: a fix both found counts once
            bugs.setdefault((bug["repo"], bug["fix"], bug["path"]), bug)
    return list(bugs.values())


def tree(repo: str, commit: str) -> Path:
    """Where the Python files of `repo` at `commit` are materialised."""
    return TREES / repo.replace("/", "+") / commit


def materialise(gitdir: Path, commit: str, target: Path) -> str | None:
    """Write the Python files of `commit` under `target`; return why not, or None."""
    # the whole archive streams through and only Python files are kept: a pathspec that matches
    # nothing (a repository without notebooks) would make `git archive` fail
    archive = subprocess.Popen(
        ["git", "--git-dir", str(gitdir), "archive", "--format=tar", commit],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    partial = target.with_name(target.name + ".partial")
    assert archive.stdout is not None
    with tarfile.open(fileobj=archive.stdout, mode="r|") as stream:
        for member in stream:
            if member.isfile() and member.name.endswith(SUFFIXES):
                stream.extract(member, partial, filter="data")
    error = archive.stderr.read().decode(errors="replace").strip() if archive.stderr else ""
    if archive.wait() != 0:
        return error.splitlines()[-1] if error else "git archive failed"
    partial.mkdir(parents=True, exist_ok=True)
    partial.rename(target)
    return None


def fetch(bugs: list[dict], mirrors: Path, clone: bool) -> list[str]:
    """Materialise every bug's two trees; return one line per bug that could not be fetched."""
    problems = []
    for bug in bugs:
        gitdir = git_dir(bug["repo"], mirrors, clone)
        for commit in (bug["before"], bug["fix"]):
            target = tree(bug["repo"], commit)
            if target.is_dir():
                continue
            if gitdir is None:
                problems.append(f"{bug['id']}: no mirror of {bug['repo']} (use --mirrors or --clone)")
                break
            why = materialise(gitdir, commit, target)
            if why:
                problems.append(f"{bug['id']}: {commit[:10]}: {why}")
        if not (tree(bug["repo"], bug["before"]) / bug["path"]).is_file():
            problems.append(f"{bug['id']}: {bug['path']} missing at {bug['before'][:10]}")
    return problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"), help="folder of <owner>+<name>/repo mirrors")
    parser.add_argument("--clone", action="store_true", help="clone from GitHub what no mirror has")
    args = parser.parse_args()
    bugs = load_bugs()
    problems = fetch(bugs, args.mirrors, args.clone)
    for line in problems:
        print(line, file=sys.stderr)
    failed = {line.split(":")[0] for line in problems}
    print(f"{len(bugs) - len(failed)} of {len(bugs)} bugs fetched into {TREES}")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
