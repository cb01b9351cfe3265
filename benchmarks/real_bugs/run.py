"""Lint real, fixed memory bugs at the commit before and at the fixing commit; print how many memlint finds.

    python benchmarks/real_bugs/fetch.py      # once: fill src/ from git mirrors
    python benchmarks/real_bugs/run.py [--json FILE]

Each bug of manifest.json names a file, the leaking line(s) at the commit before
the fix (a line, or [first, last] of one statement) and the rule that should
report them. memlint lints every before-file and every after-file, each side in
one process (`memlint lint --select ALL`), each file alone (no other file of its
project is there). Printed:

- expected lines hit: a finding of the expected rule on the line (and, apart,
  of any rule);
- bugs fully caught: every expected line of the bug hit by the expected rule;
  apart, bugs with a finding of the expected rule on a leaking line or on a line
  of the before-file that the fix touched (the fix may sit at a helper's call);
- findings on the fixed lines of the fixed files: findings in the after-file
  on lines the fix changed or added (should be none);
- the same per rule, and every missed line.

The figures and every finding are written to benchmarks/results/real_bugs.json.
Not a test: it needs the fetched sources, which CI does not have.
"""

from __future__ import annotations

import argparse
import collections
import datetime
import difflib
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from fetch import SRC, load_bugs  # noqa: E402

RESULTS = HERE.parent / "results" / "real_bugs.json"


def lint(root: Path, preview: bool = False) -> dict[str, list[dict]]:
    """Findings of every rule for every file under `root`, keyed by the path relative to it. The
    tree is linted with settings of its own (none, or `preview = true`), never those of a memlint
    checkout it lies in, whose excludes (`examples`) would drop files and which would make the
    checkout the project root."""
    config = root / (".memlint_bench_preview.toml" if preview else ".memlint_bench.toml")
    config.write_text("[tool.memlint]\n" + ("preview = true\n" if preview else ""), encoding="utf-8")
    done = subprocess.run(
        [
            *(sys.executable, "-m", "memlint", "lint", "--no-cache", "--exit-zero", "--format", "json"),
            *("--select", "ALL", "--config", str(config), str(root)),
        ],
        capture_output=True,
        text=True,
        cwd=root,
    )
    if done.returncode not in (0, 1) or not done.stdout.strip():
        # memlint's JSON report is never empty ("[]" at least): no output is a failure of the run
        raise SystemExit(f"memlint failed on {root}: {done.stderr.strip().splitlines()[-1:]}")
    findings: dict[str, list[dict]] = collections.defaultdict(list)
    for finding in json.loads(done.stdout):
        path = Path(finding["filename"])
        relative = (path if path.is_absolute() else root / path).resolve().relative_to(root.resolve())
        findings[str(relative)].append(
            {"code": finding["code"], "row": finding["location"]["row"], "message": finding["message"]}
        )
    for line in done.stderr.splitlines():
        # an analysis that ran out of its CPU allowance on a file drops its findings there: say so,
        # or a slowdown reads as lost recall
        if "error" in line.lower() or "stopped after" in line:
            print(f"memlint: {line}", file=sys.stderr)
    return findings


def span(item: int | list[int]) -> range:
    first, last = (item, item) if isinstance(item, int) else item
    return range(first, last + 1)


def changed_lines(before: list[str], after: list[str]) -> tuple[set[int], set[int]]:
    """Lines of `before` the fix touched (changed, deleted, or next to an insertion) and lines of `after`
    that it changed or added."""
    old: set[int] = set()
    new: set[int] = set()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, before, after, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        old.update(range(i1 + 1, i2 + 1) if i2 > i1 else (i1, i1 + 1))
        new.update(range(j1 + 1, j2 + 1))
    return old, new


def score(bugs: list[dict], before: dict[str, list[dict]], after: dict[str, list[dict]]) -> dict:
    results = []
    for bug in bugs:
        key = f"{bug['id']}/{bug['path']}"
        if not (SRC / "before" / key).is_file():
            continue
        found = before.get(key, [])
        old = (SRC / "before" / key).read_text(encoding="utf-8", errors="replace").splitlines()
        new_path = SRC / "after" / key
        new = new_path.read_text(encoding="utf-8", errors="replace").splitlines() if new_path.is_file() else []
        fix_site, fixed = changed_lines(old, new)
        lines = []
        for item in bug["lines"]:
            rows = set(span(item))
            here = [f for f in found if f["row"] in rows]
            lines.append(
                {
                    "line": item,
                    "hit": any(f["code"] == bug["rule"] for f in here),
                    "hit_any_rule": bool(here),
                    "codes": sorted({f["code"] for f in here}),
                    # False where the fix went elsewhere (the helper's caller, the callee's store)
                    "changed_by_fix": bool(rows & fix_site),
                }
            )
        on_fixed = [f for f in after.get(key, []) if f["row"] in fixed]
        results.append(
            {
                "id": bug["id"],
                "rule": bug["rule"],
                "kind": bug.get("kind", ""),
                "lines": lines,
                "caught": all(line["hit"] for line in lines),
                # the finding points at the leak or at the line its fix changed (a no_grad put around a
                # helper's call, a detach added in a callee)
                "flagged_at_leak_or_fix": any(line["hit"] for line in lines)
                or any(f["code"] == bug["rule"] and f["row"] in fix_site for f in found),
                "findings_before": found,
                "findings_on_fixed_lines": on_fixed,
            }
        )
    return {"bugs": results, "totals": totals(results), "by_rule": by_rule(results)}


def totals(results: list[dict]) -> dict:
    lines = [line for bug in results for line in bug["lines"]]
    return {
        "bugs": len(results),
        "lines": len(lines),
        "lines_hit": sum(line["hit"] for line in lines),
        "lines_hit_any_rule": sum(line["hit_any_rule"] for line in lines),
        "bugs_caught": sum(bug["caught"] for bug in results),
        "bugs_with_a_hit": sum(any(line["hit"] for line in bug["lines"]) for bug in results),
        "bugs_flagged_at_leak_or_fix": sum(bug["flagged_at_leak_or_fix"] for bug in results),
        "findings_on_fixed_lines": sum(len(bug["findings_on_fixed_lines"]) for bug in results),
        "findings_on_fixed_lines_expected_rule": sum(
            sum(f["code"] == bug["rule"] for f in bug["findings_on_fixed_lines"]) for bug in results
        ),
    }


def by_rule(results: list[dict]) -> dict:
    grouped: dict[str, list[dict]] = collections.defaultdict(list)
    for bug in results:
        grouped[bug["rule"]].append(bug)
    return {rule: totals(bugs) for rule, bugs in sorted(grouped.items())}


def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "-"


def report(summary: dict) -> None:
    t = summary["totals"]
    print(f"bugs: {t['bugs']}, expected lines: {t['lines']}")
    print(f"expected lines hit (expected rule): {t['lines_hit']} ({percent(t['lines_hit'], t['lines'])})")
    print(f"expected lines hit (any rule):      {t['lines_hit_any_rule']} ({percent(t['lines_hit_any_rule'], t['lines'])})")
    print(f"bugs fully caught: {t['bugs_caught']}; bugs with at least one line hit: {t['bugs_with_a_hit']}")
    print(f"bugs with a finding of the expected rule on a leaking line or a line the fix touched: {t['bugs_flagged_at_leak_or_fix']}")
    print(
        f"findings on fixed lines of the fixed files: {t['findings_on_fixed_lines']}"
        f" (of the expected rule: {t['findings_on_fixed_lines_expected_rule']})"
    )
    print()
    print("| rule | bugs | lines | lines hit | hit % | any rule | bugs caught |")
    print("|---|---|---|---|---|---|---|")
    for rule, r in summary["by_rule"].items():
        print(
            f"| {rule} | {r['bugs']} | {r['lines']} | {r['lines_hit']} | {percent(r['lines_hit'], r['lines'])}"
            f" | {r['lines_hit_any_rule']} | {r['bugs_caught']} |"
        )
    print()
    for bug in summary["bugs"]:
        for line in bug["lines"]:
            if not line["hit"]:
                other = f" (reported as {', '.join(line['codes'])})" if line["codes"] else ""
                print(f"missed: {bug['id']} {bug['rule']} line {line['line']}{other}")
        for f in bug["findings_on_fixed_lines"]:
            print(f"on a fixed line: {bug['id']} line {f['row']} {f['code']} {f['message'][:100]}")


def memlint_commit() -> str:
    """The commit of the memlint that runs (the first folder on PYTHONPATH that is a git work tree, else this one)."""
    for folder in [*os.environ.get("PYTHONPATH", "").split(os.pathsep), str(HERE)]:
        if not folder:
            continue
        done = subprocess.run(["git", "-C", folder, "rev-parse", "HEAD"], capture_output=True, text=True)
        if done.returncode == 0:
            return done.stdout.strip()
    return "unknown"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", type=Path, default=RESULTS, help="where to write the results")
    args = parser.parse_args()
    if not (SRC / "before").is_dir():
        raise SystemExit(f"no sources in {SRC}: run benchmarks/real_bugs/fetch.py first")
    bugs = load_bugs()
    summary = score(bugs, lint(SRC / "before"), lint(SRC / "after"))
    summary["memlint_commit"] = memlint_commit()
    summary["date"] = datetime.date.today().isoformat()
    report(summary)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
