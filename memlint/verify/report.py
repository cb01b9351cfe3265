"""What `memlint verify` prints: a table, JSON, and a plot of memory per iteration.

A memory finding's row shows the memory slope; a speed finding's row (ML004,
ML009) shows the median step time, and with `--compare-fix` the median
after the fix, their ratio and its 95% interval."""

from __future__ import annotations

import json
import os
from typing import TextIO

from memlint.verify.core import (
    CONFIRMED, ERROR, INCONCLUSIVE, NOT_CONFIRMED, NOT_REACHED, Item, Measure, ScriptResult, fix_outcome,
)
from memlint.verify.stats import MIB, THRESHOLD_MIB

_LABEL = {CONFIRMED: "confirmed", NOT_CONFIRMED: "not confirmed", NOT_REACHED: "not reached", ERROR: "error",
          INCONCLUSIVE: "inconclusive"}
_COLOR = {CONFIRMED: "red", NOT_CONFIRMED: "green", NOT_REACHED: "yellow", ERROR: "magenta", INCONCLUSIVE: "yellow"}


def item_json(result: ScriptResult, item: Item) -> dict:
    finding = item.finding
    data = {
        "code": finding.code if finding else None,
        "name": finding.name if finding else None,
        "filename": item.path,
        "location": finding.location.to_json() if finding else (
            {"row": item.loop.row, "column": item.loop.column} if item.loop else None
        ),
        "message": finding.message if finding else "",
        "loop": None if item.loop is None else {
            "row": item.loop.row, "column": item.loop.column, "header": item.loop.header
        },
        "kind": item.kind,
        "rank": item.rank,
        "site_kind": item.site_kind,
        "allocations": item.allocations,
        **item.before.to_json(),
        "torch": result.torch,
    }
    if item.kind == "speed":
        data["fix"] = item.fix
        data.update(item.speed.to_json() if item.speed else {"speedup": None, "speedup_ci95": None, "p_value": None})
    if result.expectation is not None:
        data["expectation"] = result.expectation
        data["expectation_held"] = result.held
    if item.after is not None:
        data["after_fix"] = item.after.to_json()
        data["fix_result"] = fix_outcome(item)
    return data


def to_json(results: list[ScriptResult]) -> list[dict]:
    items = []
    for result in results:
        if result.error and not result.items:
            items.append(
                {
                    "code": None, "name": None, "filename": result.path, "location": None, "message": result.error,
                    "loop": None, "verdict": ERROR, "note": result.error, "slope_mib_per_iter": 0.0, "growth_mib": 0.0,
                    "iterations": 0, "samples": [], "device": result.device, "error": result.error,
                    **({"expectation": result.expectation, "expectation_held": result.held} if result.expectation else {}),
                }
            )
        items.extend(item_json(result, item) for item in result.items)
    return items


def write_json(results: list[ScriptResult], stream: TextIO) -> None:
    """The items, one per finding (and rank); with nothing to verify, an object that says why."""
    items = to_json(results)
    if items:
        json.dump(items, stream, indent=2)
    else:
        reasons = [r.reason or r.error for r in results if r.reason or r.error]
        why = "nothing to verify: no ML001-ML006 (or ML004/ML009) finding in the paths given"
        json.dump({"items": [], "reason": "; ".join([why, *reasons]), "scripts": [r.path for r in results]},
                  stream, indent=2)
    stream.write("\n")


def _style(text: str, color: str | None, enabled: bool, bold: bool = False) -> str:
    if not enabled:
        return text
    import click

    return click.style(text, fg=color, bold=bold)


def _figures(m: Measure, speed: bool = False, peak: bool = False) -> str:
    """The slope; `peak` (ML002: a loop run many times inside one step) adds the highest
    memory seen within the measured iterations, the figure its fix lowers."""
    if m.verdict == NOT_REACHED or (m.verdict == ERROR and not m.iterations):
        return ""
    if speed:
        return f"{ms(m.step_time_ms)} ms/step" if m.step_time_ms is not None else f"{m.iterations} it"
    text = f"{mib(m.slope_mib)} MiB/iter, {m.growth_mib:+.1f} MiB over {m.iterations} it"
    return text + (f", peak {m.peak_mib:.1f} MiB" if peak and m.peak_samples else "")


def _peak(item: Item) -> bool:
    return item.finding is not None and item.finding.code == "ML002"


def ms(value: float) -> str:
    return f"{value:.3g}" if value < 100 else f"{value:.0f}"


def _after_speed(item: Item, color: bool) -> str:
    after = item.after
    if after.verdict in (NOT_REACHED, ERROR) or after.step_time_ms is None:
        return f"  ->  after fix: {_verdict(after, color)}"
    text = f"  ->  after fix: {ms(after.step_time_ms)} ms/step"
    if item.speed is not None:
        s = item.speed
        text += f", {s.ratio:.2f}x (95% CI {s.ci_low:.2f}-{s.ci_high:.2f}, p={s.p_value:.2g})"
    return text


def mib(value: float) -> str:
    """Enough digits to tell 0.0005 from 0.03 from 18."""
    if abs(value) >= 10:
        return f"{value:+.2f}"
    if abs(value) >= 0.1:
        return f"{value:+.3f}"
    return f"{value:+.4f}"


def _verdict(m: Measure, color: bool) -> str:
    return _style(_LABEL[m.verdict], _COLOR[m.verdict], color, bold=m.verdict == CONFIRMED)


def rank_summary(items: list[Item]) -> str:
    """Where the ranks differ, in one phrase: "confirmed on rank 0 only: +32 MiB/iter; rank 1 flat"."""
    if len(items) < 2 or any(i.rank is None for i in items):
        return ""
    confirmed = [i for i in items if i.before.verdict == CONFIRMED]
    slope = max((i.before.slope_mib for i in confirmed), default=0.0)
    if confirmed and len(confirmed) == len(items):
        return f"confirmed on every rank ({len(items)}): up to {mib(slope)} MiB/iter"
    if not confirmed:
        return ""
    ranks = ", ".join(str(i.rank) for i in confirmed)
    others = "; ".join(
        f"rank {i.rank} " + ("flat" if i.before.verdict == NOT_CONFIRMED else _LABEL[i.before.verdict])
        for i in items if i not in confirmed
    )
    return f"confirmed on rank {ranks} only: {mib(slope)} MiB/iter; {others}"


def display_path(path: str, cwd: str) -> str:
    """A frame's file as a reader can place it, never absolute: relative to the project
    (the current directory), `site-packages/lightning/...` for an installed package, else
    from the top of its package (the directory above the outermost `__init__.py`)."""
    if not os.path.isabs(path):
        return os.path.normpath(path)
    rel = os.path.relpath(path, cwd)
    if not rel.startswith(os.pardir + os.sep):
        return rel
    parts = path.split(os.sep)
    for marker in ("site-packages", "dist-packages"):
        if marker in parts:
            index = len(parts) - 1 - parts[::-1].index(marker)
            return "/".join(["site-packages", *parts[index + 1:]])
    top = os.path.dirname(path)
    while os.path.isfile(os.path.join(top, "__init__.py")) and os.path.dirname(top) != top:
        top = os.path.dirname(top)
    if top != os.path.dirname(path):
        return os.path.relpath(path, top)
    return os.path.basename(path)


def _where(path: str, line: int, function: str, cwd: str) -> str:
    return f"{display_path(path, cwd)}:{line} in {function}"


def _write_command(result: ScriptResult, stream: TextIO, color: bool, cwd: str) -> None:
    """A command's findings, grouped by finding, one line per rank where there are ranks."""
    groups: dict[tuple, list[Item]] = {}
    for item in result.items:
        f = item.finding
        groups.setdefault((item.path, f.location.row, f.location.column, f.code, f.message), []).append(item)
    for (path, row, column, code, _), items in groups.items():
        first = items[0]
        rel = os.path.relpath(path, cwd) if os.path.isabs(path) else path
        site = "-"
        if first.loop is not None:
            site = f"call of L{first.loop.row}" if first.site_kind == "call" else f"loop L{first.loop.row}"
            if first.loop.kind == "library":
                site = f"call of {first.loop.header}"
        summary = rank_summary(items)
        head = f"  {os.path.normpath(rel)}:{row}:{column}  {code} {first.finding.name}  {site}"
        multi = len(items) > 1 or first.rank is not None
        if multi:
            stream.write(head + (f"  {_style(summary, 'red', color, bold=True)}" if summary else "") + "\n")
        for item in items:
            m = item.before
            who = f"rank {item.rank}" if item.rank is not None else ""
            line = f"{'    ' + who if multi else head}  {_verdict(m, color)}{' ' * (13 - len(_LABEL[m.verdict]))} {_figures(m, peak=_peak(item))}"
            if item.after is not None:
                line += f"  ->  after fix: {_verdict(item.after, color)} {_figures(item.after, peak=_peak(item))}"
                outcome = fix_outcome(item)
                if outcome:
                    line += f"  ({outcome})"
            stream.write(line.rstrip() + "\n")
            if m.note:
                stream.write(f"      {m.note}\n")
            if item.after is not None and item.after.note:
                stream.write(f"      after fix: {item.after.note}\n")
            if m.verdict == ERROR and m.error:
                for text in m.error.rstrip().splitlines()[-12:]:
                    stream.write(f"      | {text}\n")
            if m.verdict == CONFIRMED:
                for a in item.allocations[:3]:
                    callers = " <- ".join(_where(s["file"], s["line"], s["function"], cwd) for s in a["stack"][1:])
                    stream.write(f"      allocated at {_where(a['file'], a['line'], a['function'], cwd)}: "
                                 f"{mib(a['mib_per_iter'])} MiB/iter" + (f" (called from {callers})" if callers else "") + "\n")


def write_text(results: list[ScriptResult], stream: TextIO, color: bool = False, cwd: str | None = None) -> None:
    cwd = cwd or os.getcwd()
    for result in results:
        if result.command:
            where = f" on {result.device}" if result.device else ""
            torch = f", torch {result.torch}" if result.torch else ""
            stream.write(_style(f"$ {result.path}", None, color, bold=True) + f"{where}{torch}\n")
            if result.error:
                stream.write(f"  error: {result.error}\n")
                if result.output.strip():
                    for text in result.output.rstrip().splitlines()[-8:]:
                        stream.write(f"  | {text}\n")
            if not result.items:
                stream.write("  nothing to verify (no ML001–ML006 finding in the project)\n")
            _write_command(result, stream, color, cwd)
            continue
        rel = os.path.relpath(result.path, cwd) if os.path.isabs(result.path) else result.path
        where = f" on {result.device}" if result.device else ""
        if result.timing_device and result.timing_device != result.device:
            where += f", timed on {result.timing_device}"
        torch = f", torch {result.torch}" if result.torch else ""
        stream.write(_style(rel, None, color, bold=True) + f"{where}{torch}\n")
        if result.error:
            stream.write(f"  error: {result.error}\n")
        if not result.items and not result.error:
            stream.write("  nothing to verify (no ML001–ML006, ML004 or ML009 finding)\n")
        rows = []
        for item in result.items:
            f = item.finding
            location = f"{f.location.row}:{f.location.column}" if f else (f"{item.loop.row}:{item.loop.column}" if item.loop else "")
            rule = f"{f.code} {f.name}" if f else "loop"
            loop = f"loop L{item.loop.row}" if item.loop else "-"
            row = [location, rule, loop, item.before, item.after, item]
            rows.append(row)
        if rows:
            w0 = max(len(r[0]) for r in rows)
            w1 = max(len(r[1]) for r in rows)
            w2 = max(len(r[2]) for r in rows)
            for location, rule, loop, before, after, item in rows:
                speed = item.kind == "speed"
                verdict = _verdict(before, color)
                pad = " " * (13 - len(_LABEL[before.verdict]))
                line = f"  {location:<{w0}}  {rule:<{w1}}  {loop:<{w2}}  {verdict}{pad} {_figures(before, speed, _peak(item))}"
                if after is not None and speed:
                    line += _after_speed(item, color)
                elif after is not None:
                    line += f"  ->  after fix: {_verdict(after, color)} {_figures(after, peak=_peak(item))}"
                    outcome = fix_outcome(item)
                    if outcome:
                        line += f"  ({outcome})"
                stream.write(line.rstrip() + "\n")
                if speed and item.fix and after is not None and after.verdict not in (NOT_REACHED, ERROR):
                    stream.write(f"  {'':<{w0}}  fixed by {item.fix}\n")
                for m, tag in ((before, ""), (after, "after fix: ")):
                    if m is None or (speed and m is after and m.verdict not in (NOT_REACHED, ERROR) and not m.note):
                        continue
                    if m.note:
                        stream.write(f"  {'':<{w0}}  {tag}{m.note}\n")
                    if m.verdict == ERROR and m.error:
                        for text in m.error.rstrip().splitlines()[-12:]:
                            stream.write(f"  {'':<{w0}}  | {text}\n")
        if result.expectation is not None:
            status = _style("held", "green", color) if result.held else _style("FAILED", "red", color, bold=True)
            reason = f" ({result.reason})" if result.reason and not result.held else ""
            stream.write(f"  expectation: {result.expectation}: {status}{reason}\n")
    cases = [r for r in results if r.expectation is not None]
    if len(results) > 1 or cases:
        confirmed = sum(1 for r in results for i in r.items if i.before.verdict == CONFIRMED and i.kind == "memory")
        summary = f"{len(results)} script(s), {confirmed} confirmed leak(s)"
        if any(i.kind == "speed" for r in results for i in r.items):
            slow = sum(1 for r in results for i in r.items if i.before.verdict == CONFIRMED and i.kind == "speed")
            summary += f", {slow} confirmed slowdown(s)"
        if cases:
            failed = sum(1 for r in cases if not r.held)
            summary += f"; {len(cases) - failed}/{len(cases)} test case expectations held"
        stream.write(summary + f" (threshold {THRESHOLD_MIB} MiB/iter)\n")


def plot(results: list[ScriptResult], filename: str) -> int:
    """Memory above the baseline per iteration, one panel per probed loop; returns the panel count."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = []
    for result in results:
        if result.command:
            panels.extend(_command_panels(result))
            continue
        before = result.runs.get("before", {})
        after = result.runs.get("after", {})
        for ordinal, measure in sorted(before.items()):
            if not measure.samples:
                continue
            codes = sorted({i.finding.code for i in result.items if i.finding and i.loop and i.loop.ordinal == ordinal})
            loop = result.loops.get(ordinal)
            title = f"{os.path.basename(result.path)} L{loop.row if loop else '?'}"
            if codes:
                title += f" ({', '.join(codes)})"
            panels.append((title, measure, after.get(ordinal)))
    if not panels:
        return 0
    columns = min(3, len(panels))
    rows = (len(panels) + columns - 1) // columns
    fig, axes = plt.subplots(rows, columns, figsize=(5.2 * columns, 3.6 * rows), squeeze=False)
    for ax in axes.flat[len(panels):]:
        ax.axis("off")
    for ax, (title, before, after) in zip(axes.flat, panels):
        lines = before if isinstance(before, list) else [(before, "as written", "-"), (after, "after memlint's fix", "--")]
        for m, label, style in lines:
            if m is None or not m.samples:
                continue
            ys = [(s - m.samples[0]) / MIB for s in m.samples]
            ax.plot(range(len(ys)), ys, style, marker=".", label=f"{label}: {mib(m.slope_mib)} MiB/iter ({_LABEL[m.verdict]})")
        ax.set_title(title, fontsize=9)
        ax.set_xlabel("iteration")
        ax.set_ylabel("MiB above the loop's start")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    device = next((r.device for r in results if r.device), "")
    torch = next((r.torch for r in results if r.torch), "")
    fig.suptitle(f"memlint verify: memory per iteration ({device}, torch {torch})", fontsize=10)
    fig.tight_layout()
    fig.savefig(filename, dpi=110)
    plt.close(fig)
    return len(panels)


def _command_panels(result: ScriptResult) -> list[tuple]:
    """One panel per probed site of a command, one line per rank."""
    panels: dict[tuple, tuple] = {}
    for item in result.items:
        if item.loop is None or not item.before.samples:
            continue
        key = (item.path, item.loop.row)
        kind = "call" if item.site_kind == "call" else "loop"
        title = f"{os.path.basename(item.path)} {kind} L{item.loop.row} ({item.finding.code})"
        label = f"rank {item.rank}" if item.rank is not None else "as written"
        lines = panels.setdefault(key, (title, [], None))[1]
        if all(existing[1] != label for existing in lines):
            lines.append((item.before, label, "-"))
    return list(panels.values())
