"""`memlint estimate --baseline REF`: the prediction compared with a base, for CI on pull
requests (no torch here).

REF is a saved prediction (`memlint estimate --format json ... > base.json`) or a git ref of
the repository the command runs in: its tree is checked out into a temporary worktree and the
same estimate runs there, from the same subfolder, with this memlint. The gate compares what
the verdict compares, the larger of the reserved and allocated peaks: it fails when that grows
past `--max-increase` (a percentage, or a size) or when the change stops fitting the budget.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from memlint.estimate.sizes import in_unit, parse_size, unit_for


class BaselineError(Exception):
    """The base cannot be had; `str()` is one line."""


def parse_increase(text: str) -> tuple[str, float]:
    """'5%' -> ('percent', 5.0); '200MiB' -> ('bytes', 209715200.0); ValueError otherwise."""
    match = re.fullmatch(r"\s*([0-9]*\.?[0-9]+)\s*%\s*", text)
    if match:
        return "percent", float(match.group(1))
    try:
        return "bytes", float(parse_size(text))
    except ValueError:
        raise ValueError(f"--max-increase: not a percentage or a size: {text!r} (examples: 5%, 200MiB)") from None


def need(result: dict) -> int:
    """What the verdict compares with the budget."""
    return max(result["peak_reserved"], result["peak_allocated"])


def resolve(ref: str) -> dict | tuple[str, str]:
    """What can be had of the base before the prediction runs: a saved prediction, or the ref's commit
    and the repository's top folder. A REF that is neither fails here, before any run."""
    if os.path.isfile(ref):
        try:
            with open(ref, encoding="utf-8") as handle:
                base = json.load(handle)
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise BaselineError(f"--baseline {ref}: not a saved prediction ({exc})") from None
        if not isinstance(base, dict) or not {"peak_allocated", "peak_reserved"} <= base.keys():
            raise BaselineError(f"--baseline {ref}: not a saved prediction (memlint estimate --format json)")
        return base
    cwd = os.getcwd()
    try:
        return (_git(["rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"], cwd),
                _git(["rev-parse", "--show-toplevel"], cwd))
    except (BaselineError, OSError):
        raise BaselineError(f"--baseline {ref}: neither a saved prediction (a JSON file) nor a git ref of the "
                            "repository here") from None


def load(ref: str, resolved: dict | tuple[str, str], rerun_args: list[str], timeout: float) -> tuple[dict, str]:
    """(the base's prediction, how it was had), from what `resolve` found. `rerun_args` are this
    estimate's arguments, to run again on the ref's tree (with --format json)."""
    if isinstance(resolved, dict):
        return resolved, f"saved prediction {ref}"
    return _at_ref(ref, *resolved, rerun_args, timeout), f"git {ref}"


def _git(args: list[str], cwd: str) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        raise BaselineError((done.stderr.strip().splitlines() or ["git failed"])[-1])
    return done.stdout.strip()


def _at_ref(ref: str, commit: str, top: str, rerun_args: list[str], timeout: float) -> dict:
    prefix = os.path.relpath(os.getcwd(), top)
    holder = tempfile.mkdtemp(prefix="memlint-baseline-")
    tree = os.path.join(holder, "tree")
    try:
        _git(["worktree", "add", "--detach", "--quiet", tree, commit], top)
        where = os.path.normpath(os.path.join(tree, prefix))
        if not os.path.isdir(where):
            raise BaselineError(f"--baseline {ref}: the folder {prefix} does not exist there")
        done = subprocess.run([sys.executable, "-m", "memlint", "estimate", *rerun_args, "--format", "json"],
                              cwd=where, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                              timeout=timeout + 60)
        try:
            base = json.loads(done.stdout)
        except json.JSONDecodeError:
            last = (done.stderr.strip().splitlines() or ["no output"])[-1].removeprefix("memlint estimate: ")
            raise BaselineError(f"--baseline {ref}: the base could not be predicted: {last}") from None
        return base
    except subprocess.TimeoutExpired:
        raise BaselineError(f"--baseline {ref}: the base's prediction took over {timeout + 60:.0f} s") from None
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", tree], cwd=top, capture_output=True,
                       stdin=subprocess.DEVNULL)
        shutil.rmtree(holder, ignore_errors=True)


def compare(base: dict, new: dict, label: str, max_increase: tuple[str, float] | None,
            budget: int | None) -> dict:
    """The delta per phase and category, and the gate's verdict: {"exit": 0 | 1 | 2, "reason": ...}."""
    phases = {name: {"base": base.get("phases", {}).get(name), "new": new.get("phases", {}).get(name)}
              for name in _ordered(base.get("phases", {}), new.get("phases", {}))}
    categories = {name: {"base": base.get("breakdown", {}).get(name, 0), "new": new.get("breakdown", {}).get(name, 0)}
                  for name in _ordered(base.get("breakdown", {}), new.get("breakdown", {}))}
    before, after = need(base), need(new)
    growth = after - before
    comparison = {"base": label, "base_peak_allocated": base["peak_allocated"],
                  "base_peak_reserved": base["peak_reserved"], "growth": growth,
                  "growth_percent": round(100 * growth / before, 2) if before else None,
                  "phases": phases, "categories": categories, "max_increase": None, "exit": 0, "reason": ""}
    unit = unit_for(max(before, after))
    human = lambda n: in_unit(n, unit)  # noqa: E731
    if not base.get("steps_run") or not new.get("steps_run"):
        which = "base" if not base.get("steps_run") else "change"
        comparison.update(exit=2, reason=f"no training step ran fake in the {which}: nothing to compare")
        return comparison
    if max_increase is not None:
        kind, value = max_increase
        allowed = before * value / 100 if kind == "percent" else value
        comparison["max_increase"] = f"{value:g}%" if kind == "percent" else human(value)
        if growth > allowed:
            comparison.update(exit=1, reason=f"the peak grew by {human(growth)} ({_percent(growth, before)}) over "
                                             f"{label}, past --max-increase {comparison['max_increase']}")
            return comparison
    if budget is not None and after > budget >= before:
        comparison.update(exit=1, reason=f"stops fitting: {human(after)} > {human(budget)} (the base needed "
                                         f"{human(before)})")
    return comparison


def _ordered(*dicts: dict) -> list[str]:
    names: list[str] = []
    for d in dicts:
        names.extend(k for k in d if k not in names)
    return names


def _percent(growth: int, before: int) -> str:
    return f"{100 * growth / before:+.1f}%" if before else "new"


def lines(comparison: dict) -> list[str]:
    """The comparison for people: the peak, then per phase and per category, changed rows only."""
    sizes = [comparison["base_peak_reserved"], comparison["base_peak_allocated"]]
    sizes += [v for row in comparison["phases"].values() for v in row.values() if v]
    unit = unit_for(max(sizes))
    human = lambda n: in_unit(n, unit)  # noqa: E731
    before = max(comparison["base_peak_reserved"], comparison["base_peak_allocated"])
    out = [f"compared with {comparison['base']}: peak {human(before)} -> {human(before + comparison['growth'])} "
           f"({_signed(comparison['growth'], human)}, {_percent(comparison['growth'], before)})"]
    for title, rows in (("by phase (allocated)", comparison["phases"]), ("at the peak", comparison["categories"])):
        changed = [(name, row) for name, row in rows.items() if (row["base"] or 0) != (row["new"] or 0)]
        if changed:
            out.append(f"  {title}:")
        for name, row in changed:
            base, new = row["base"] or 0, row["new"] or 0
            out.append(f"    {name:<28}{human(base):>12} -> {human(new):>12}  {_signed(new - base, human):>12}")
    if comparison["reason"]:
        out.append(comparison["reason"])
    return out


def _signed(n: int, human) -> str:
    return ("+" if n > 0 else "") + human(n) if n >= 0 else "-" + human(-n)
