"""`memlint verify`: lint a script, probe the loops its findings point at, run
it in a child, and turn each loop's memory samples into a verdict."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from memlint.engine import DecodeError, lint_source, read_source
from memlint.models import Finding
from memlint.rules import ALL_RULES
from memlint.verify import cases, runner, targets
from memlint.verify.instrument import instrument
from memlint.verify.stats import MIB, THRESHOLD_MIB, Growth, growth

CONFIRMED, NOT_CONFIRMED, NOT_REACHED, ERROR = "confirmed", "not_confirmed", "not_reached", "error"
ALL_CODES = [r.code for r in ALL_RULES]


@dataclass
class Options:
    iterations: int = 30
    timeout: float = 300.0
    device: str = "auto"
    compare_fix: bool = False
    limit_bytes: int | None = None
    codes: list[str] = field(default_factory=lambda: list(ALL_CODES))


@dataclass
class Measure:
    """What one run showed for one probed loop."""

    verdict: str
    note: str = ""
    slope_mib: float = 0.0
    growth_mib: float = 0.0
    iterations: int = 0
    samples: list[int] = field(default_factory=list)  # bytes after 0, 1, 2, ... iterations
    peak_samples: list[int] = field(default_factory=list)  # the peak within each iteration (0: before the loop)
    peak_slope_mib: float = 0.0
    peak_mib: float = 0.0
    seconds_per_iter: float | None = None
    device: str = ""
    error: str = ""

    def to_json(self) -> dict:
        return {
            "verdict": self.verdict,
            "note": self.note,
            "slope_mib_per_iter": round(self.slope_mib, 6),
            "growth_mib": round(self.growth_mib, 6),
            "iterations": self.iterations,
            "samples": self.samples,
            "peak_mib": round(self.peak_mib, 3),
            "peak_samples": self.peak_samples,
            "peak_slope_mib_per_iter": round(self.peak_slope_mib, 6),
            "seconds_per_iter": None if self.seconds_per_iter is None else round(self.seconds_per_iter, 6),
            "device": self.device,
            "error": self.error,
        }


@dataclass
class Item:
    """One finding (or, for a test case without findings, one loop) and its verdicts."""

    path: str
    finding: Finding | None
    loop: targets.LoopInfo | None
    before: Measure
    after: Measure | None = None


@dataclass
class ScriptResult:
    path: str
    items: list[Item] = field(default_factory=list)
    expectation: str | None = None  # "leaks" | "flat" for test cases
    held: bool | None = None
    reason: str = ""  # why the expectation did not hold, or why nothing ran
    error: str = ""  # memlint could not verify the script at all
    device: str = ""
    torch: str = ""
    output: str = ""
    loops: dict[int, targets.LoopInfo] = field(default_factory=dict)
    runs: dict[str, dict[int, Measure]] = field(default_factory=dict)  # "before"/"after" -> probe -> measure


Progress = Callable[[str, dict[int, int], float], None]


def judge(probe: int, loop: targets.LoopInfo, outcome: runner.Outcome) -> Measure:
    raw = outcome.samples.get(probe, [])
    samples = [b for _, b, _, _ in raw]
    m = Measure(NOT_REACHED, samples=samples, device=outcome.device)
    if raw:
        g: Growth = growth(samples)
        m.slope_mib, m.growth_mib, m.iterations = g.slope_mib, g.growth_mib, g.iterations
        m.peak_samples = [p for _, _, p, _ in raw]
        m.peak_mib = max(m.peak_samples) / MIB
        if len(m.peak_samples) > 2:
            m.peak_slope_mib = growth([m.peak_samples[1], *m.peak_samples[1:]]).slope_mib
        if len(raw) >= 2:
            m.seconds_per_iter = (raw[-1][3] - raw[0][3]) / (len(raw) - 1)
    status = outcome.status
    failed = status in ("error", "crashed", "oom")
    if failed:
        m.error = outcome.error
    if not raw:
        if failed:
            m.verdict = ERROR
            m.note = "the script failed before reaching the loop"
        elif status == "timeout":
            m.note = f"timed out after {outcome.elapsed:.0f}s before the loop was reached"
        else:
            code = f" (exit code {outcome.exit_code})" if status == "exit" and outcome.exit_code not in (None, 0) else ""
            m.note = f"the script ended without entering the loop{code}"
        return m
    complete = probe in outcome.done or probe in outcome.left or status in ("stopped", "finished", "exit")
    in_loop = any(loop.row <= line <= loop.end_row for line in outcome.error_lines)
    if status == "oom" and (in_loop or (not outcome.error_lines and not complete)):
        m.verdict = CONFIRMED
        m.note = f"out of memory after {m.iterations} iterations"
        return m
    if m.iterations == 0:
        if failed:
            m.verdict, m.note = ERROR, "the script failed in the loop's first iteration"
        elif status == "timeout":
            m.note = f"timed out after {outcome.elapsed:.0f}s in the loop's first iteration"
        else:
            m.note = "the loop ran no iteration"
        return m
    if failed and not complete:
        m.verdict = ERROR
        m.note = f"the script failed after {m.iterations} iterations of the loop"
        return m
    retained = growth(samples)
    leaks = retained.leaks
    peaks = m.peak_samples[1:]  # the peak within each iteration (sample 0 is the set-up before the loop)
    peak_leaks = False
    if not leaks and len(peaks) >= 5:
        pg = growth([peaks[0], *peaks])
        m.peak_slope_mib = pg.slope_mib
        peak_leaks = pg.leaks
    m.verdict = CONFIRMED if leaks or peak_leaks else NOT_CONFIRMED
    notes = []
    if peak_leaks:
        notes.append(f"the peak within each iteration grows by {m.peak_slope_mib:.3g} MiB/iter (what is kept between iterations does not)")
    if status == "timeout" and not complete:
        notes.append(f"timed out after {m.iterations} iterations")
    elif m.iterations < 6:
        notes.append(f"only {m.iterations} iterations")
    if m.slope_mib >= THRESHOLD_MIB and not leaks:
        notes.append("a one-off step, not steady growth")
    m.note = "; ".join(notes)
    return m


def _probe_plan(parsed: targets.Parsed, findings: list[Finding], case: bool):
    """finding -> (ordinal or None, why not); and the ordinals to probe."""
    plan: list[tuple[Finding | None, int | None, str]] = []
    for finding in findings:
        if finding.code not in targets.PROBED_CODES:
            continue
        loop, why = targets.loop_for(parsed, finding)
        plan.append((finding, None if loop is None else parsed.ordinal(loop), why))
    if case and not any(o is not None for _, o, _ in plan):
        for loop in targets.leaf_loops(parsed):
            plan.append((None, parsed.ordinal(loop), ""))
    probes = sorted({o for _, o, _ in plan if o is not None})
    return plan, probes


def _run(path, source, display, probes, argv, options, launcher, progress, label):
    request = runner.Request(
        path=path,
        source=source,
        probes=probes,
        argv=argv,
        iterations=options.iterations,
        timeout=options.timeout,
        device=options.device,
        limit_bytes=options.limit_bytes,
        display_source=display,
        label=label,
    )
    return runner.run(request, launcher, progress)


def verify_script(
    path: str,
    argv: list[str],
    options: Options,
    launcher,
    progress: Progress | None = None,
    case: bool | None = None,
) -> ScriptResult:
    expect = cases.expectation(path)
    case = expect is not None if case is None else case
    result = ScriptResult(path, expectation=expect if case else None)
    try:
        text = read_source(path).text
    except (OSError, DecodeError) as exc:
        result.error = f"cannot read: {exc}"
        return _check(result)
    findings, errors = lint_source(text, path, options.codes)
    if any(f.code == "ML000" for f in findings):
        result.error = "the file does not parse: " + next(f.message for f in findings if f.code == "ML000")
        return _check(result)
    try:
        parsed = targets.parse(text, path)
    except Exception as exc:  # noqa: BLE001 - cannot instrument what does not parse
        result.error = f"cannot parse: {exc}"
        return _check(result)
    result.loops = {i.ordinal: i for i in parsed.infos}
    plan, probes = _probe_plan(parsed, findings, case)
    before: dict[int, Measure] = {}
    after: dict[int, Measure] | None = None
    if probes:
        source = instrument(parsed.module, {id(parsed.loops[o]): o for o in probes})
        outcome = _run(path, source, None, probes, argv, options, launcher, progress, path)
        result.device, result.torch, result.output = outcome.device, outcome.torch, outcome.output
        if outcome.internal:
            lines = outcome.error.strip().splitlines()
            result.error = f"could not run the script: {lines[-1] if lines else 'unknown error'}"
            return _check(result)
        before = {o: judge(o, parsed.infos[o], outcome) for o in probes}
        result.runs["before"] = before
        if options.compare_fix:
            after = _run_fixed(path, text, parsed, probes, argv, options, launcher, progress)
            result.runs["after"] = after
    for finding, ordinal, why in plan:
        if ordinal is None:
            item = Item(path, finding, None, Measure(NOT_REACHED, note=why))
            if options.compare_fix:
                item.after = Measure(NOT_REACHED, note=why)
        else:
            item = Item(path, finding, parsed.infos[ordinal], before[ordinal])
            if after is not None:
                item.after = after.get(ordinal) or Measure(NOT_REACHED, note="the loop was not found after the fix")
        result.items.append(item)
    return _check(result)


def _run_fixed(path, text, parsed, probes, argv, options, launcher, progress) -> dict[int, Measure]:
    from memlint.fixes import fix_source  # what `memlint --fix --unsafe-fixes` writes

    fixed_text = fix_source(text, path, options.codes, unsafe=True).text
    try:
        fixed = targets.parse(fixed_text, path)
    except Exception as exc:  # noqa: BLE001 - a fix that breaks the file
        return {o: Measure(ERROR, note="the fixed source does not parse", error=str(exc)) for o in probes}
    mapping: dict[int, int] = {}
    if len(fixed.loops) == len(parsed.loops):
        mapping = {o: o for o in probes}
    else:  # match by the loop's header text
        for o in probes:
            header = parsed.infos[o].header
            same = [i.ordinal for i in fixed.infos if i.header == header]
            if len(same) == 1:
                mapping[o] = same[0]
    new_probes = sorted(set(mapping.values()))
    if not new_probes:
        return {}
    source = instrument(fixed.module, {id(fixed.loops[n]): n for n in new_probes})
    outcome = _run(path, source, fixed_text, new_probes, argv, options, launcher, progress, f"{path} (fixed)")
    return {o: judge(n, fixed.infos[n], outcome) for o, n in mapping.items()}


def _check(result: ScriptResult) -> ScriptResult:
    """Did the test case show what it declares?"""
    if result.expectation is None:
        return result
    verdicts = [i.before.verdict for i in result.items if i.loop is not None]
    if result.error:
        result.held, result.reason = False, result.error
    elif not verdicts:
        result.held, result.reason = False, "no loop to probe"
    elif result.expectation == "leaks":
        result.held = CONFIRMED in verdicts
        if not result.held:
            result.reason = "no probed loop grew"
            errors = [i.before for i in result.items if i.before.verdict == ERROR]
            if errors:
                result.reason = "the script failed: " + (errors[0].error.strip().splitlines() or [""])[-1]
    else:
        reached = [v for v in verdicts if v != NOT_REACHED]
        if CONFIRMED in verdicts:
            result.held, result.reason = False, "a probed loop grew"
        elif ERROR in verdicts:
            err = next(i.before for i in result.items if i.before.verdict == ERROR)
            result.held, result.reason = False, "the script failed: " + (err.error.strip().splitlines() or [""])[-1]
        elif not reached:
            result.held, result.reason = False, "no probed loop was reached"
        else:
            result.held = True
    return result
