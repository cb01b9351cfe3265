"""Fill benchmarks/real_bugs/src/ with each bug's file before and after its fix.

    python benchmarks/real_bugs/fetch.py [--mirrors DIR] [--clone]

For every bug of manifest.json, writes src/before/<id>/<path> (the file at the
commit before the fix) and src/after/<id>/<path> (at the fixing commit). The
text comes from `git show COMMIT:PATH` in a git mirror of the repository:
`<mirrors>/<owner>+<name>/repo` (bare, or a work tree with .git; the layout of
the search tool's `fetch`), or, with `--clone`, a blob-less clone from GitHub
made under src/.clones/. The folder is git-ignored: third-party code is never
committed, only the manifest that says where to read it.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
MANIFEST = HERE / "manifest.json"
SRC = HERE / "src"


def load_bugs(manifest: Path = MANIFEST) -> list[dict]:
    return json.loads(manifest.read_text(encoding="utf-8"))["bugs"]


def git_dir(repo: str, mirrors: Path, clone: bool) -> Path | None:
    """The git directory to read `repo` from, cloning it when asked and no mirror has it."""
    mirror = mirrors / repo.replace("/", "+") / "repo"
    for candidate in (mirror / ".git", mirror, SRC / ".clones" / repo.replace("/", "+")):
        if (candidate / "HEAD").is_file():
            return candidate
    if not clone:
        return None
    target = SRC / ".clones" / repo.replace("/", "+")
    target.parent.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        ["git", "clone", "--bare", "--filter=blob:none", f"https://github.com/{repo}.git", str(target)],
        capture_output=True,
        text=True,
    )
    return target if done.returncode == 0 else None


def show(gitdir: Path, commit: str, path: str) -> bytes | None:
    done = subprocess.run(["git", "--git-dir", str(gitdir), "show", f"{commit}:{path}"], capture_output=True)
    return done.stdout if done.returncode == 0 else None


def fetch(bugs: list[dict], mirrors: Path, clone: bool) -> list[str]:
    """Write every bug's two files; return one line per bug that could not be fetched."""
    problems = []
    for bug in bugs:
        gitdir = git_dir(bug["repo"], mirrors, clone)
        if gitdir is None:
            problems.append(f"{bug['id']}: no mirror of {bug['repo']} (use --mirrors or --clone)")
            continue
        for side, commit in (("before", bug["before"]), ("after", bug["fix"])):
            target = SRC / side / bug["id"] / bug["path"]
            if target.is_file():
                continue
            text = show(gitdir, commit, bug["path"])
            if text is None:
                problems.append(f"{bug['id']}: {bug['path']} not readable at {commit[:10]}")
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(text)
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
    print(f"{len(bugs) - len({p.split(':')[0] for p in problems})} of {len(bugs)} bugs fetched into {SRC}")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
