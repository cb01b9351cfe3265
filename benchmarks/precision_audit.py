"""Precision on code bases memlint was never tuned for: every finding, read in context and classified.

    python benchmarks/precision_audit.py [--mirrors DIR] [--clone] [--corpus DIR] [--only NAME ...]

Two groups of code bases: the 11 pinned packages of benchmarks/corpus_findings.py
(PACKAGES; unpacked from their wheels into `--corpus`, by default the directory
that script uses) and the 8 repositories of CODEBASES, which no rule was tuned
on, each checked out at its pinned commit (from a git mirror
`<mirrors>/<owner>+<name>/repo`, or with `--clone` from GitHub) into the
git-ignored benchmarks/precision_audit_src/. Each is linted cold with every
rule; every finding, with 6 lines of context either side, goes to
benchmarks/precision_audit_src/findings.md, for reading.

The verdicts readers gave are in benchmarks/results/precision_audit_verdicts*.json
(one file per reader, joined), one per finding (code base, path, line, rule): `true` (a real leak or waste as the
message says), `defensible` (the code is fragile or wasteful enough that a
reviewer would accept the finding, or the message's claim holds but the cost is
bounded) or `false` (the code is fine, or the message is wrong), with the reason.
The script joins them to the findings and prints, per rule, how many are true,
defensible, false and not yet read; the counts go to
benchmarks/results/precision_audit.json (`--results`; benchmarks/results/precision_audit_before.json
holds the findings of main at 6a31742, before issue 16's precision work). `--rejoin` lints
nothing and joins the verdicts again to the findings of a results file. No third-party code is committed.
"""

from __future__ import annotations

import argparse
import collections
import io
import tempfile
import json
import os
import subprocess
import sys
import tarfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from corpus_findings import PACKAGES, unpack  # noqa: E402  (a sibling script, not a package)

SRC = HERE / "precision_audit_src"
VERDICTS = HERE / "results"
RESULTS = HERE / "results" / "precision_audit.json"
CONTEXT = 6

# name: (GitHub repository, commit); none of them is in the corpus the rules were tuned on
CODEBASES = {
    "stable-baselines3": ("DLR-RM/stable-baselines3", "e05d2dbe6eda0acd0ef2e316e3e4065677add3eb"),
    "tianshou": ("thu-ml/tianshou", "f2402056b03acafeedf2518a5088db55add004ab"),
    "composer": ("mosaicml/composer", "6405188805a0054b4551ec49e4919c54c971d0e8"),
    "flair": ("flairNLP/flair", "d4ea3777998ba67bfbe6b6b8359e024dcf673c3e"),
    "nanoGPT": ("karpathy/nanoGPT", "3adf61e154c3fe3fca428ad6bc3818b27a3b8291"),
    "cleanrl": ("vwxyzjn/cleanrl", "fe8d8a03c41a7ef5b523e2e354bd01c363e786bb"),
    "pyro": ("pyro-ppl/pyro", "ff6ae1c9572591791aae8842bcd702fcf0b46fd6"),
    "pytorch-forecasting": ("sktime/pytorch-forecasting", "062aeb47b75d589dcce621c04572181e3584a301"),
}


def git_dir(repo: str, mirrors: Path, clone: bool) -> Path | None:
    mirror = mirrors / repo.replace("/", "+") / "repo"
    clones = SRC / ".clones" / repo.replace("/", "+")
    for candidate in (mirror / ".git", mirror, clones):
        if (candidate / "HEAD").is_file():
            return candidate
    if clone:
        clones.parent.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(["git", "clone", "--bare", f"https://github.com/{repo}.git", str(clones)], capture_output=True)
        if done.returncode == 0:
            return clones
    return None


def stored_sources(gitdir: Path, commit: str) -> list[str]:
    """The `.py` and `.ipynb` paths at `commit` whose contents the git directory holds: a mirror may
    lack the blobs of large files (a notebook with its outputs, a PDF), which would fail the archive."""
    listing = subprocess.run(
        ["git", "--git-dir", str(gitdir), "ls-tree", "-r", "-z", commit], capture_output=True, text=True
    )
    entries = [line.split("\t", 1) for line in listing.stdout.split("\0") if line]
    wanted = [(meta.split()[2], path) for meta, path in entries if path.endswith((".py", ".ipynb"))]
    present = subprocess.run(
        ["git", "--git-dir", str(gitdir), "cat-file", "--batch-check=%(objectname) %(objecttype)"],
        input="".join(f"{blob}\n" for blob, _ in wanted),
        capture_output=True,
        text=True,
    )
    held = {line.split()[0] for line in present.stdout.splitlines() if line.endswith(" blob")}
    return [path for blob, path in wanted if blob in held]


def checkout(name: str, repo: str, commit: str, mirrors: Path, clone: bool) -> Path | None:
    """The code base's Python files at `commit`, under SRC/name (extracted once)."""
    target = SRC / name
    if target.is_dir():
        return target
    gitdir = git_dir(repo, mirrors, clone)
    if gitdir is None:
        return None
    paths = stored_sources(gitdir, commit)
    archive = subprocess.run(["git", "--git-dir", str(gitdir), "archive", commit, "--", *paths], capture_output=True)
    if not paths or archive.returncode != 0:
        return None
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        members = [m for m in tar.getmembers() if m.isfile() and m.name.endswith((".py", ".ipynb"))]
        tar.extractall(target, members=members, filter="data")
    return target


def verdicts() -> dict[str, dict]:
    """Every reader's verdicts, joined: each file covers its own rules, so no key is in two files."""
    joined: dict[str, dict] = {}
    for path in sorted(VERDICTS.glob("precision_audit_verdicts*.json")):
        joined.update(json.loads(path.read_text(encoding="utf-8")))
    return joined


def lint(root: Path) -> list[dict]:
    """Every finding of this checkout's memlint (not an installed one) on `root`, cold, with no settings
    but the defaults: never those of the memlint checkout the tree lies in, whose excludes (`examples`)
    would drop files and which would make the checkout the project root."""
    env = {**os.environ, "PYTHONPATH": str(HERE.parent)}
    done = subprocess.run(
        [
            *(sys.executable, "-m", "memlint", "lint", "--no-cache", "--exit-zero", "--isolated"),
            *("--format", "json", "--select", "ALL", "."),
        ],
        capture_output=True,
        text=True,
        cwd=root,
        env=env,
    )
    return json.loads(done.stdout or "[]")


def key(name: str, finding: dict) -> str:
    return f"{name}:{finding['path']}:{finding['row']}:{finding['code']}"


def source_lines(root: Path, path: str) -> list[str]:
    """The lines a finding's row counts in: the file's, or for `notebook.ipynb#N` those of cell N."""
    file, _, cell = path.partition("#")
    text = (root / file).read_text(encoding="utf-8", errors="replace")
    if not cell:
        return text.splitlines()
    try:
        source = json.loads(text)["cells"][int(cell) - 1]["source"]
    except (ValueError, IndexError, KeyError):  # not a notebook memlint could read either
        return []
    return "".join(source).splitlines() if isinstance(source, list) else source.splitlines()


def context(root: Path, path: str, row: int) -> str:
    lines = source_lines(root, path)
    first, last = max(1, row - CONTEXT), min(len(lines), row + CONTEXT)
    return "\n".join(f"{'>' if n == row else ' '}{n:5} {lines[n - 1]}" for n in range(first, last + 1))


def codebases(args: argparse.Namespace) -> list[tuple[str, str, Path | None]]:
    """(name, version or commit, root) of every code base audited; root is None where it could not be had."""
    chosen = []
    for name, requirement in PACKAGES.items():
        if not args.only or name in args.only:
            chosen.append((name, requirement, unpack(args.corpus, name, requirement)))
    for name, (repo, commit) in CODEBASES.items():
        if not args.only or name in args.only:
            root = checkout(name, repo, commit, args.mirrors, args.clone)
            if root is None:
                print(f"{name}: no mirror of {repo} (use --mirrors or --clone)", file=sys.stderr)
            chosen.append((name, f"{repo}@{commit}", root))
    return chosen


def audit(args: argparse.Namespace) -> tuple[dict[str, str], list[dict]]:
    """Lint every code base chosen; write the findings, with their context, to `args.listing`."""
    findings, listing, audited = [], [], {}
    for name, version, root in codebases(args):
        if root is None:
            continue
        audited[name] = version
        for f in lint(root):
            finding = {
                "codebase": name,
                "path": Path(f["filename"]).as_posix().removeprefix("./") + (f"#{f['cell']}" if f.get("cell") else ""),
                "row": f["location"]["row"],
                "code": f["code"],
                "message": f["message"],
                "fix": (f.get("fix") or {}).get("applicability"),
            }
            findings.append(finding)
            listing.append(
                f"## {key(name, finding)}\n{finding['message']}\n\n```\n{context(root, finding['path'], finding['row'])}\n```\n"
            )
    args.listing.parent.mkdir(parents=True, exist_ok=True)
    args.listing.write_text("\n".join(listing), encoding="utf-8")
    return audited, findings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--clone", action="store_true", help="clone from GitHub what no mirror has")
    parser.add_argument("--corpus", type=Path, default=Path(tempfile.gettempdir()) / "memlint-corpus")
    parser.add_argument("--only", nargs="*", help="audit only these code bases (and write no results)")
    parser.add_argument("--listing", type=Path, default=SRC / "findings.md", help="where to write the findings to read")
    parser.add_argument("--results", type=Path, default=RESULTS, help="the results JSON to write")
    parser.add_argument(
        "--rejoin", action="store_true", help="lint nothing: join the verdicts to the findings already in --results"
    )
    args = parser.parse_args()
    if args.rejoin:
        previous = json.loads(args.results.read_text(encoding="utf-8"))
        audited, findings = previous["codebases"], previous["findings"]
    else:
        audited, findings = audit(args)
    read = verdicts()
    per_rule: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for f in findings:
        f["verdict"] = read.get(key(f["codebase"], f), {}).get("verdict", "unread")
        per_rule[f["code"]][f["verdict"]] += 1
    per_rule["all"] = sum(per_rule.values(), collections.Counter())
    print("| rule | findings | true | defensible | false | unread | true + defensible |")
    print("|---|---|---|---|---|---|---|")
    for code, c in sorted(per_rule.items(), key=lambda item: (item[0] == "all", item[0])):
        judged = c["true"] + c["defensible"] + c["false"]
        share = f"{100 * (c['true'] + c['defensible']) / judged:.0f}%" if judged else "-"
        print(f"| {code} | {sum(c.values())} | {c['true']} | {c['defensible']} | {c['false']} | {c['unread']} | {share} |")
    if args.only:
        return
    args.results.write_text(
        json.dumps(
            {"codebases": audited, "per_rule": {k: dict(v) for k, v in sorted(per_rule.items())}, "findings": findings},
            indent=1,
        )
        + "\n",
        encoding="utf-8",
    )


if __name__ == "__main__":
    main()
