"""`memlint verify`: lint a script, probe the loops its findings point at, run
it in a child, and turn each loop's memory samples into a verdict.

The speed rules (ML004, ML009) are timed instead: their loops run in a run
of their own (on CPU without the memory tracker, whose overhead would swamp
the step time), and with `--compare-fix` again with the slow call removed;
the finding is confirmed when the step time drops beyond noise
(`stats.compare_times`)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable

from memlint.engine import DecodeError, lint_source, read_source
from memlint.models import Finding
from memlint.rules import ALL_RULES
from memlint.verify import cases, script_run, targets
from memlint.verify.instrument import instrument
from memlint.verify.stats import MIB, THRESHOLD_MIB, Growth, Speedup, compare_times, growth, median, time_warmup_for

CONFIRMED, NOT_CONFIRMED, NOT_REACHED, ERROR = "confirmed", "not_confirmed", "not_reached", "error"
INCONCLUSIVE = "inconclusive"  # the loop ran, but too few iterations after the warm-up for a verdict
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
    step_times_ms: list[float] = field(default_factory=list)  # wall time of each iteration
    step_time_ms: float | None = None  # their median after the warm-up
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
            "step_time_ms": None if self.step_time_ms is None else round(self.step_time_ms, 4),
            "step_times_ms": [round(t, 4) for t in self.step_times_ms],
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
    kind: str = "memory"  # or "speed" (ML004, ML009: timed, confirmed by --compare-fix)
    speed: Speedup | None = None
    fix: str = ""  # speed findings: what the fixed run changed
    rank: int | None = None  # `-- COMMAND`: the rank (RANK / torch.distributed) this verdict is for
    site_kind: str = "loop"  # or "call": a function probed per call, each call one iteration
    allocations: list[dict] = field(default_factory=list)  # {file, line, function, mib_per_iter, stack}


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
    timing_device: str = ""  # where the speed findings' loops were timed
    loops: dict[int, targets.LoopInfo] = field(default_factory=dict)
    runs: dict[str, dict[int, Measure]] = field(default_factory=dict)  # "before"/"after" -> probe -> measure
    command: list[str] = field(default_factory=list)  # `-- COMMAND`: what ran (items then span the project)


Progress = Callable[[str, dict[int, int], float], None]


def judge(probe: int, loop: targets.LoopInfo, outcome: script_run.Outcome) -> Measure:
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
            m.step_times_ms = [(b[3] - a[3]) * 1000 for a, b in zip(raw, raw[1:])]
            timed = m.step_times_ms[time_warmup_for(len(m.step_times_ms)):]
            if timed:
                m.step_time_ms = median(timed)
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
    if not retained.conclusive:
        m.verdict = INCONCLUSIVE
        why = retained.too_few()
        if status == "timeout" and not complete:
            why += f"; timed out after {outcome.elapsed:.0f}s"
        m.note = why
        return m
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
    if m.slope_mib >= THRESHOLD_MIB and not leaks:
        notes.append("a one-off step, not steady growth")
    m.note = "; ".join(notes)
    return m


def attribute(loop: Measure, kept: list[int] | None) -> Measure:
    """A finding's own measure: the growth of what its store keeps alive (the storages
    of the values it holds and of the graphs they reach, `trackers.kept_bytes`), so
    that a finding next to another that leaks is not confirmed by its neighbour."""
    if not kept or loop.verdict not in (CONFIRMED, NOT_CONFIRMED) or loop.note.startswith("out of memory"):
        return loop
    g = growth(kept)
    m = replace(loop)
    if not g.conclusive:
        return m
    m.slope_mib, m.growth_mib = g.slope_mib, g.growth_mib
    m.verdict = CONFIRMED if g.leaks else NOT_CONFIRMED
    share = f"what this store keeps grows {g.slope_mib:+.3g} MiB/iter, the whole loop {loop.slope_mib:+.3g}"
    m.note = "; ".join(n for n in (share, loop.note if m.verdict == loop.verdict else "") if n)
    return m


def fix_outcome(item: Item) -> str:
    """What `--compare-fix` showed for a memory finding: "fixed" only when the run as
    written grew and the fixed run is flat; "the fix broke the run: ..." when the fixed
    program raised where the one as written did not."""
    before, after = item.before, item.after
    if after is None or item.kind != "memory":
        return ""
    if (after.error or after.verdict == ERROR) and not (before.error or before.verdict == ERROR):
        lines = (after.error or after.note).strip().splitlines()
        return "the fix broke the run: " + (lines[-1] if lines else "it failed")
    if before.verdict != CONFIRMED:
        return ""
    if after.verdict == NOT_CONFIRMED:
        return "fixed"
    if after.verdict == CONFIRMED:
        return f"not fixed: still {after.slope_mib:+.3g} MiB/iter"
    return f"not shown: after the fix the site was {after.verdict.replace('_', ' ')}"


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


def _speed_plan(parsed: targets.Parsed, findings: list[Finding]):
    """ML004/ML009 finding -> (ordinal or None, why not); and the ordinals to time."""
    plan: list[tuple[Finding, int | None, str]] = []
    for finding in findings:
        if finding.code in targets.SPEED_CODES:
            loop, why = targets.speed_loop_for(parsed, finding)
            plan.append((finding, None if loop is None else parsed.ordinal(loop), why))
    return plan, sorted({o for _, o, _ in plan if o is not None})


def _run(path, source, display, probes, argv, options, launcher, progress, label, timing=False):
    request = script_run.Request(
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
        timing=timing,
    )
    return script_run.run(request, launcher, progress)


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
    stores: dict[int, tuple[int, int]] = {}  # id(container) -> (probe, store); the store is the plan's index
    for index, (finding, ordinal, _) in enumerate(plan):
        container = targets.store_container(parsed, finding) if finding is not None and ordinal is not None else None
        if container is not None:
            stores[id(container)] = (ordinal, index)
    speed_plan, speed_probes = _speed_plan(parsed, findings)
    fixing = _Fixing(text, path, options) if options.compare_fix and (probes or speed_probes) else None
    before: dict[int, Measure] = {}
    after: dict[int, Measure] | None = None
    kept: dict[int, list[int]] = {}
    if probes:
        source = instrument(parsed.module, {id(parsed.loops[o]): o for o in probes}, stores)
        outcome = _run(path, source, None, probes, argv, options, launcher, progress, path)
        kept = outcome.kept
        result.device, result.torch, result.output = outcome.device, outcome.torch, outcome.output
        if outcome.internal:
            lines = outcome.error.strip().splitlines()
            result.error = f"could not run the script: {lines[-1] if lines else 'unknown error'}"
            return _check(result)
        before = {o: judge(o, parsed.infos[o], outcome) for o in probes}
        result.runs["before"] = before
        if options.compare_fix:
            after = _run_fixed(path, fixing.text, parsed, probes, argv, options, launcher, progress)
            result.runs["after"] = after
    for index, (finding, ordinal, why) in enumerate(plan):
        if ordinal is None:
            item = Item(path, finding, None, Measure(NOT_REACHED, note=why))
            if options.compare_fix:
                item.after = Measure(NOT_REACHED, note=why)
        else:
            item = Item(path, finding, parsed.infos[ordinal], attribute(before[ordinal], kept.get(index)))
            if after is not None:
                item.after = after.get(ordinal) or Measure(NOT_REACHED, note="the loop was not found after the fix")
        result.items.append(item)
    if speed_plan:
        error = _time_speed_findings(result, path, parsed, speed_plan, speed_probes, argv, options, launcher, progress, fixing)
        if error:
            result.error = error
    return _check(result)


class _Fixing:
    """The fixed source, computed once: memlint's fixes (`--fix --unsafe-fixes`);
    for the timing run also verify's own removal of each ML004/ML009 call
    those fixes leave (ML004's fix is display-only)."""

    def __init__(self, text: str, path: str, options: Options) -> None:
        from memlint.fixes import fix_source

        self.path = path
        self.result = fix_source(text, path, options.codes, unsafe=True)
        self.text = self.result.text
        self._timing: tuple[str, dict[tuple[str, str], str]] | None = None

    def timing(self) -> tuple[str, dict[tuple[str, str], str]]:
        """(source, (code, message) -> the removal verify made) for the fixed timing run."""
        if self._timing is None:
            from memlint.verify.removal import remove_slow_calls

            self._timing = remove_slow_calls(self.text, self.path)
        return self._timing

    def how(self, finding: Finding) -> str:
        removed = self.timing()[1]
        key = (finding.code, finding.message)
        if key in removed:
            return f"verify's in-memory removal: {removed[key]}"
        if any((f.code, f.message) == key for f in self.result.applied):
            return "memlint's fix"
        return "memlint's fixes"


def _time_speed_findings(result, path, parsed, plan, probes, argv, options, launcher, progress, fixing) -> str:
    """Time the loops of the speed findings (and, with --compare-fix, again in the fixed source); add their items."""
    timed: dict[int, Measure] = {}
    timed_after: dict[int, Measure] = {}
    if probes:
        source = instrument(parsed.module, {id(parsed.loops[o]): o for o in probes})
        outcome = _run(path, source, None, probes, argv, options, launcher, progress, f"{path} (timing)", timing=True)
        result.timing_device = outcome.device
        if not result.device:
            result.device, result.torch, result.output = outcome.device, outcome.torch, outcome.output
        if outcome.internal:
            lines = outcome.error.strip().splitlines()
            return f"could not run the script: {lines[-1] if lines else 'unknown error'}"
        timed = {o: _timing_measure(judge(o, parsed.infos[o], outcome)) for o in probes}
        result.runs["timing"] = timed
        if fixing is not None:
            text, _ = fixing.timing()
            timed_after = {
                o: _timing_measure(m)
                for o, m in _run_fixed(path, text, parsed, probes, argv, options, launcher, progress, timing=True).items()
            }
            result.runs["timing_after"] = timed_after
    for finding, ordinal, why in plan:
        if ordinal is None:
            item = Item(path, finding, None, Measure(NOT_REACHED, note=why), kind="speed")
            if options.compare_fix:
                item.after = Measure(NOT_REACHED, note=why)
        else:
            item = Item(path, finding, parsed.infos[ordinal], replace(timed[ordinal]), kind="speed")
            if fixing is not None:
                found = timed_after.get(ordinal)
                item.after = replace(found) if found else Measure(NOT_REACHED, note="the loop was not found after the fix")
                item.fix = fixing.how(finding)
            _judge_speed(item, fixing is not None)
        result.items.append(item)
    return ""


def _timing_measure(m: Measure) -> Measure:
    """A measure of a timing run: on CPU it holds no memory figures."""
    if "(timing only" in m.device:
        m.samples, m.peak_samples, m.peak_mib = [], [], 0.0
    if m.verdict in (NOT_CONFIRMED, INCONCLUSIVE):  # the memory verdict of a timing run means nothing
        m.note = ""
    return m


def _judge_speed(item: Item, compared: bool) -> None:
    """The verdict of a speed finding from its step times, as written and fixed."""
    m = item.before
    if m.verdict in (NOT_REACHED, ERROR):
        return
    m.verdict = NOT_CONFIRMED
    notes = []
    if not compared:
        notes.append("step time only: a speed finding is confirmed against the fixed run (--compare-fix)")
    else:
        after = item.after
        if after is None or after.verdict in (NOT_REACHED, ERROR):
            notes.append("the fixed run did not time the loop")
        else:
            after.verdict = NOT_CONFIRMED  # for a speed finding: the fixed run timed the loop
            warm_b = time_warmup_for(len(m.step_times_ms))
            warm_a = time_warmup_for(len(after.step_times_ms))
            item.speed = compare_times(m.step_times_ms[warm_b:], after.step_times_ms[warm_a:])
            if item.speed is None:
                notes.append("too few iterations to compare step times")
            elif item.speed.confirmed:
                m.verdict = CONFIRMED
            else:
                notes.append("no speed-up beyond noise")
        if item.finding is not None and item.finding.code == "ML004" and m.device.startswith("cpu"):
            notes.append("without a GPU `empty_cache()` does nothing: run on a GPU to measure it")
    if m.note:
        notes.append(m.note)
    m.note = "; ".join(notes)


def _run_fixed(path, fixed_text, parsed, probes, argv, options, launcher, progress, timing=False) -> dict[int, Measure]:
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
    label = f"{path} (timing, fixed)" if timing else f"{path} (fixed)"
    outcome = _run(path, source, fixed_text, new_probes, argv, options, launcher, progress, label, timing=timing)
    return {o: judge(n, fixed.infos[n], outcome) for o, n in mapping.items()}


def _check(result: ScriptResult) -> ScriptResult:
    """Did the test case show what it declares?"""
    if result.expectation is None:
        return result
    verdicts = [i.before.verdict for i in result.items if i.loop is not None and i.kind == "memory"]
    if result.error:
        result.held, result.reason = False, result.error
    elif not verdicts:
        result.held, result.reason = False, "no loop to probe"
    elif result.expectation == "leaks":
        result.held = CONFIRMED in verdicts
        if not result.held:
            result.reason = "no probed loop grew"
            unsure = [i.before for i in result.items if i.before.verdict == INCONCLUSIVE and i.kind == "memory"]
            if unsure:
                result.reason = f"inconclusive: {unsure[0].note}"
            errors = [i.before for i in result.items if i.before.verdict == ERROR and i.kind == "memory"]
            if errors:
                result.reason = "the script failed: " + (errors[0].error.strip().splitlines() or [""])[-1]
    else:
        reached = [v for v in verdicts if v != NOT_REACHED]
        if CONFIRMED in verdicts:
            result.held, result.reason = False, "a probed loop grew"
        elif ERROR in verdicts:
            err = next(i.before for i in result.items if i.before.verdict == ERROR and i.kind == "memory")
            result.held, result.reason = False, "the script failed: " + (err.error.strip().splitlines() or [""])[-1]
        elif not reached:
            result.held, result.reason = False, "no probed loop was reached"
        elif NOT_CONFIRMED not in verdicts:  # every loop that ran ran too few iterations
            unsure = next(i.before for i in result.items if i.before.verdict == INCONCLUSIVE and i.kind == "memory")
            result.held, result.reason = False, f"inconclusive: {unsure.note}"
        else:
            result.held = True
    return result
