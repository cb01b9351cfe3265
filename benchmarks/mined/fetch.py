"""Fill benchmarks/mined/src/ with the Python trees of every mined bug, before and at its fix.

    python benchmarks/mined/fetch.py [--mirrors DIR] [--clone] [--manifest FILE...]

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
import shutil
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from real_bugs.fetch import git_dir  # noqa: E402

SRC = HERE / "src"
TREES = SRC / "trees"
SUFFIXES = (".py", ".ipynb")


def load_bugs(manifests: list[str] | None = None) -> list[dict]:
    """Every bug of every manifest (manifest_a.json, manifest_b.json, ...), in file order, each fixed file once.

    `manifests` (file names such as "manifest_d.json") keeps only the bugs of those manifests.
    """
    known = sorted(HERE.glob("manifest_*.json"))
    unknown = set(manifests or ()) - {manifest.name for manifest in known}
    if unknown:
        raise SystemExit(f"no such manifest: {', '.join(sorted(unknown))}")
    bugs: dict[tuple[str, str, str], dict] = {}
    for manifest in known:
        if manifests is not None and manifest.name not in manifests:
            continue
        for bug in json.loads(manifest.read_text(encoding="utf-8"))["bugs"]:
            # the two manifests are mined apart: a fix both found counts once
            bugs.setdefault((bug["repo"], bug["fix"], bug["path"]), bug)
    return list(bugs.values())


def tree(repo: str, commit: str) -> Path:
    """Where the Python files of `repo` at `commit` are materialised."""
    return TREES / repo.replace("/", "+") / commit


def materialise(gitdir: Path, commit: str, target: Path) -> str | None:
    """Write the Python files of `commit` under `target`; return why not, or None.

    Blobs are read with `git cat-file --batch`: a snapshot may lack some objects
    (large files), and a missing blob is skipped instead of failing the tree.
    """
    git = ["git", "--git-dir", str(gitdir)]
    listing = subprocess.run([*git, "ls-tree", "-r", "-z", commit], capture_output=True)
    if listing.returncode != 0:
        return listing.stderr.decode(errors="replace").strip().splitlines()[-1:][0] if listing.stderr else "ls-tree failed"
    blobs = []
    for entry in listing.stdout.split(b"\0"):
        meta, _, name = entry.partition(b"\t")
        parts = meta.split()
        if len(parts) == 3 and parts[1] == b"blob" and name.decode(errors="replace").endswith(SUFFIXES):
            blobs.append((parts[2], name.decode(errors="replace")))
    request = b"".join(sha + b"\n" for sha, _ in blobs)
    done = subprocess.run([*git, "cat-file", "--batch"], input=request, capture_output=True)
    partial = target.with_name(target.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    out, at = done.stdout, 0
    for _, name in blobs:
        header_end = out.index(b"\n", at)
        header = out[at:header_end].split()
        at = header_end + 1
        if len(header) < 3 or header[1] != b"blob":  # "<sha> missing"
            continue
        size = int(header[2])
        path = (partial / name).resolve()
        if partial.resolve() in path.parents:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(out[at : at + size])
        at += size + 1
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
    parser.add_argument("--manifest", nargs="+", metavar="FILE", help="only the bugs of these manifests (manifest_d.json)")
    args = parser.parse_args()
    bugs = load_bugs(args.manifest)
    problems = fetch(bugs, args.mirrors, args.clone)
    for line in problems:
        print(line, file=sys.stderr)
    failed = {line.split(":")[0] for line in problems}
    print(f"{len(bugs) - len(failed)} of {len(bugs)} bugs fetched into {TREES}")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
