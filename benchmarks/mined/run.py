"""Lint every mined bug's repository before and at its fix, as a project; report recall per half and per rule.

    python benchmarks/mined/fetch.py      # once: materialise the trees from git mirrors
    python benchmarks/mined/run.py --label NAME [--jobs N] [--half dev|dev-a|dev-b|test] [--rule CODE...]
                                          [--manifest FILE...] [--reuse [--cache DIR]]

Each bug of manifest_*.json names a file of a repository, the leaking line(s) at
the commit before the fix (a line, or [first, last] of one statement) and the
memlint rule that should report them (null: a real memory bug of a class no rule
covers, reported apart). Every materialised tree is linted once, as a whole
project from its own folder (`memlint lint --select ALL`), so facts of the other
files of the repository are available. The scoring is benchmarks/real_bugs/run.py's:
expected lines hit (a finding of the expected rule on the line; apart, of any
rule), bugs fully caught, and findings on the lines the fix changed in the fixed
file (should be none). Bugs are split into a dev and a test half by split.py, and the dev
half into dev-a (studied) and dev-b (held out, to check that a change transfers).

Printed and written to benchmarks/results/mined_<label>.json: the figures per
half and per rule, and the dev half's bugs one by one. The test half's bugs one
by one go only to the git-ignored src/ folder: its misses are not to be studied.
Not a test: it needs the fetched sources, which CI does not have.
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import datetime
import hashlib
import json
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from mined.fetch import SRC, load_bugs, tree  # noqa: E402
from mined.split import dev_part, half  # noqa: E402
from real_bugs import run as real  # noqa: E402

RESULTS = HERE.parent / "results"


def lint_tree(root: Path, cache: Path | None, preview: bool) -> tuple[dict[str, list[dict]], float]:
    """Findings of one tree (linted as its own project) and the seconds it took, from `cache` when it holds them."""
    stored = cache / root.parent.name / f"{root.name}.json" if cache else None
    if stored and stored.is_file():
        saved = json.loads(stored.read_text(encoding="utf-8"))
        return saved["findings"], saved["seconds"]
    started = time.perf_counter()
    findings = real.lint(root, preview)
    seconds = time.perf_counter() - started
    if stored:
        stored.parent.mkdir(parents=True, exist_ok=True)
        stored.write_text(json.dumps({"seconds": seconds, "findings": findings}), encoding="utf-8")
    return findings, seconds


def lint_trees(
    roots: list[Path], jobs: int, cache: Path | None, preview: bool = False
) -> tuple[dict[Path, dict[str, list[dict]]], dict[Path, float], dict[Path, str]]:
    """Findings and seconds of every tree, and why a tree could not be linted."""
    findings: dict[Path, dict[str, list[dict]]] = {}
    seconds: dict[Path, float] = {}
    failures: dict[Path, str] = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(lint_tree, root, cache, preview): root for root in roots}
        for future in concurrent.futures.as_completed(futures):
            root = futures[future]
            try:
                findings[root], seconds[root] = future.result()
            except SystemExit as failure:
                failures[root] = str(failure)
    return findings, seconds, failures


def score_bug(bug: dict, before: dict[str, list[dict]], after: dict[str, list[dict]]) -> dict:
    """One bug's lines hit and findings on its fixed lines, as benchmarks/real_bugs/run.py scores them."""
    old_file = tree(bug["repo"], bug["before"]) / bug["path"]
    new_file = tree(bug["repo"], bug["fix"]) / bug["path"]
    old = old_file.read_text(encoding="utf-8", errors="replace").splitlines()
    new = new_file.read_text(encoding="utf-8", errors="replace").splitlines() if new_file.is_file() else []
    fix_site, fixed = real.changed_lines(old, new)
    found = before.get(bug["path"], [])
    lines = []
    for item in bug["lines"]:
        rows = set(real.span(item))
        here = [f for f in found if f["row"] in rows]
        lines.append(
            {
                "line": item,
                "hit": bug["rule"] is not None and any(f["code"] == bug["rule"] for f in here),
                "hit_any_rule": bool(here),
                "codes": sorted({f["code"] for f in here}),
                "changed_by_fix": bool(rows & fix_site),
            }
        )
    return {
        "id": bug["id"],
        "repo": bug["repo"],
        "half": half(bug["repo"]),
        "rule": bug["rule"],
        "kind": bug.get("kind", ""),
        "lines": lines,
        "caught": all(line["hit"] for line in lines),
        "flagged_at_leak_or_fix": any(line["hit"] for line in lines)
        or any(f["code"] == bug["rule"] and f["row"] in fix_site for f in found),
        "findings_before": found,
        "findings_on_fixed_lines": [f for f in after.get(bug["path"], []) if f["row"] in fixed],
    }


def summarise(results: list[dict]) -> dict:
    """Totals and per-rule figures of the rule-mapped bugs; the null-rule bugs apart (lines hit by any rule)."""
    ruled = [bug for bug in results if bug["rule"] is not None]
    unruled = [bug for bug in results if bug["rule"] is None]
    return {
        "repos": len({bug["repo"] for bug in results}),
        "totals": real.totals(ruled),
        "by_rule": real.by_rule(ruled),
        "no_rule": real.totals(unruled),
    }


def report(name: str, summary: dict) -> None:
    t = summary["totals"]
    print(f"== {name} half: {t['bugs']} bugs with a rule from {summary['repos']} repositories, {t['lines']} lines")
    print(f"lines hit (expected rule): {t['lines_hit']} ({real.percent(t['lines_hit'], t['lines'])});"
          f" any rule: {t['lines_hit_any_rule']} ({real.percent(t['lines_hit_any_rule'], t['lines'])})")
    print(f"bugs fully caught: {t['bugs_caught']}; with a hit: {t['bugs_with_a_hit']};"
          f" flagged at the leak or the fix: {t['bugs_flagged_at_leak_or_fix']}")
    print(f"findings on fixed lines: {t['findings_on_fixed_lines']} (expected rule: {t['findings_on_fixed_lines_expected_rule']})")
    n = summary["no_rule"]
    print(f"no-rule bugs: {n['bugs']}, {n['lines']} lines, hit by some rule: {n['lines_hit_any_rule']}")
    print("| rule | bugs | lines | lines hit | hit % | any rule | bugs caught |")
    print("|---|---|---|---|---|---|---|")
    for rule, r in summary["by_rule"].items():
        print(f"| {rule} | {r['bugs']} | {r['lines']} | {r['lines_hit']} | {real.percent(r['lines_hit'], r['lines'])}"
              f" | {r['lines_hit_any_rule']} | {r['bugs_caught']} |")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--label", required=True, help="names the results file: benchmarks/results/mined_<label>.json")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="trees linted at once")
    parser.add_argument(
        "--reuse",
        action="store_true",
        help="keep each tree's findings under src/findings/<label>/ and reuse them on a later run with the same label"
        " (only while memlint is unchanged: a new memlint needs a new label)",
    )
    parser.add_argument("--cache", type=Path, help="with --reuse: keep the findings under DIR/<label>/ instead")
    parser.add_argument(
        "--half",
        choices=("dev", "dev-a", "dev-b", "test"),
        help="lint and score only this half's trees (dev-a and dev-b: the studied and the held-out part of dev)",
    )
    parser.add_argument(
        "--preview", action="store_true", help="lint with preview = true: also the findings that rest on an assumption"
    )
    parser.add_argument(
        "--rule", nargs="+", metavar="CODE", help="lint and score only the trees of bugs expected of these rules"
    )
    parser.add_argument(
        "--manifest", nargs="+", metavar="FILE", help="lint and score only the bugs of these manifests (manifest_d.json)"
    )
    args = parser.parse_args()
    bugs = [bug for bug in load_bugs(args.manifest) if (tree(bug["repo"], bug["before"]) / bug["path"]).is_file()]
    if args.half in ("dev", "test"):
        bugs = [bug for bug in bugs if half(bug["repo"]) == args.half]
    elif args.half:
        bugs = [bug for bug in bugs if half(bug["repo"]) == "dev" and dev_part(bug["repo"]) == args.half]
    if not bugs:
        raise SystemExit(f"no sources in {SRC}: run benchmarks/mined/fetch.py first")
    if args.rule:
        bugs = [bug for bug in bugs if bug["rule"] in args.rule]
        if not bugs:
            raise SystemExit(f"no bug of this half expects {', '.join(args.rule)}")
    roots = sorted({tree(bug["repo"], commit) for bug in bugs for commit in (bug["before"], bug["fix"])})
    started = time.perf_counter()
    findings, tree_seconds, failures = lint_trees(
        roots, args.jobs, (args.cache or SRC / "findings") / args.label if args.reuse else None, args.preview
    )
    seconds = time.perf_counter() - started
    for root, why in sorted(failures.items()):
        print(f"not linted: {root.relative_to(SRC)}: {why}", file=sys.stderr)
    results = [
        score_bug(bug, findings[tree(bug["repo"], bug["before"])], findings.get(tree(bug["repo"], bug["fix"]), {}))
        for bug in bugs
        if tree(bug["repo"], bug["before"]) in findings
    ]
    halves = {
        name: summarise([bug for bug in results if bug["half"] == name])
        for name in ("dev", "test")
        if args.half in (None, name) or (name == "dev" and args.half.startswith("dev"))
    }
    # like the test half's, the held-out part's misses are not printed nor kept in the results
    shown = [bug for bug in results if bug["half"] == "dev" and args.half != "dev-b"]
    for name, summary in halves.items():
        report(name, summary)
    for bug in shown:
        for line in bug["lines"]:
            if not line["hit"]:
                other = f" (reported as {', '.join(line['codes'])})" if line["codes"] else ""
                print(f"dev missed: {bug['id']} {bug['rule']} line {line['line']}{other}")
        for f in bug["findings_on_fixed_lines"]:
            print(f"dev on a fixed line: {bug['id']} line {f['row']} {f['code']} {f['message'][:100]}")
    print(
        f"{len(roots)} trees linted in {seconds:.0f} s with {args.jobs} jobs ({sum(tree_seconds.values()):.0f} s of"
        f" tree runs, reused ones included); {len(failures)} failed"
    )
    summary = {
        "label": args.label,
        "memlint_commit": real.memlint_commit(),
        "date": datetime.date.today().isoformat(),
        # which manifests, at which content, the figures are of
        "manifests": {
            manifest.name: {
                "bugs": len(json.loads(manifest.read_text(encoding="utf-8"))["bugs"]),
                "sha1": hashlib.sha1(manifest.read_bytes()).hexdigest(),
            }
            for manifest in sorted(HERE.glob("manifest_*.json"))
        },
        "trees": len(roots),
        "trees_failed": len(failures),
        "lint_seconds": round(seconds, 1),
        "tree_seconds": round(sum(tree_seconds.values()), 1),
        "jobs": args.jobs,
        "half": args.half or "both",
        "manifest_filter": args.manifest,
        "preview": args.preview,
        "halves": halves,
        "dev_bugs": shown,
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"mined_{args.label}.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    # the test half's bugs one by one stay out of the repository: nobody is to study its misses
    test_bugs = [bug for bug in results if bug not in shown]
    if test_bugs:
        (SRC / f"test_bugs_{args.label}.json").write_text(json.dumps(test_bugs, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
