"""`memlint verify [PATHS] -- COMMAND`: prove the findings of a project through
the command that really runs it.

PATHS are linted; each ML001–ML006 finding gets a site: the loop that should
show its growth (`targets.loop_for`), or, where no loop of its file runs it
(a framework hook such as `training_step`, a function called from another
module), the function around it, probed per call; where the growth is in a
framework's own loop (ML016: transformers' evaluation loop), the library
function that loop calls per iteration (`library_sites`), probed per call when
the command imports it. Each file with a site is
instrumented in memory and put in the manifest that `bootstrap` loads in
every Python process of the command. Verdicts are per process: per rank
under torchrun, `torch.multiprocessing.spawn` or accelerate.
"""

from __future__ import annotations

import ast
import os

import libcst as cst
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from memlint.engine import DecodeError, lint_source, read_source
from memlint.models import Finding
from memlint.verify import command, library_sites, script_run, targets
from memlint.verify.core import ERROR, NOT_REACHED, Item, Measure, Options, ScriptResult, attribute, judge
from memlint.verify.instrument import instrument_all
from memlint.verify.stats import MIB


@dataclass
class Site:
    probe: int | None  # None: nothing to probe (why in `why`)
    path: str
    finding: Finding
    info: targets.LoopInfo | None
    kind: str = "loop"
    why: str = ""
    store: int | None = None  # the finding's store, measured on its own (`core.attribute`)


@dataclass
class Plan:
    sites: list[Site] = field(default_factory=list)
    files: dict[str, dict] = field(default_factory=dict)  # real path -> {"source", "probes"}
    calls: list[int] = field(default_factory=list)
    library: list[dict] = field(default_factory=list)  # {"module", "qualname", "probe"}, wrapped by `bootstrap`
    errors: list[str] = field(default_factory=list)  # files that could not be read or parsed


def project_files(paths: list[str]) -> tuple[list[str], list[str]]:
    """The .py files of PATHS (memlint's own discovery and excludes), and warnings."""
    from memlint.config import ConfigError, load_settings
    from memlint.discovery import discover

    try:
        settings = load_settings(start=Path.cwd())
    except ConfigError as exc:
        return [], [str(exc)]
    found = discover(paths, settings.exclude, settings.root)
    files = [f for f in found.files if f.endswith(".py")]
    return files, [f"{m}: no such file or directory" for m in found.missing] + found.warnings


def imported_modules(script: str) -> list[str]:
    """The project files `script` imports, directly or through each other (`import a.b`,
    `from a.b import c`, `from . import c`), resolved as `python SCRIPT` would: absolute
    names against the script's directory, relative ones against the importing file's."""
    base = os.path.dirname(os.path.abspath(script))
    found: list[str] = []
    todo = [os.path.abspath(script)]
    while todo:
        current = todo.pop()
        for candidate in _imports_of(current, base):
            if candidate not in found:
                found.append(candidate)
                todo.append(candidate)
    return found


def _imports_of(path: str, base: str) -> list[str]:
    try:
        tree = ast.parse(read_source(path).text, path)
    except (OSError, DecodeError, SyntaxError, ValueError):
        return []
    named: list[tuple[str, str]] = []  # (directory to resolve against, dotted name)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            named.extend((base, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                root = os.path.dirname(path)
                for _ in range(node.level - 1):
                    root = os.path.dirname(root)
            else:
                root = base
            prefix = f"{node.module}." if node.module else ""
            if node.module:
                named.append((root, node.module))
            named.extend((root, prefix + alias.name) for alias in node.names)
    files = []
    for root, name in named:
        stem = os.path.join(root, *name.split("."))
        for candidate in (stem + ".py", os.path.join(stem, "__init__.py")):
            if os.path.isfile(candidate):
                files.append(candidate)
    return files


def plan(paths: list[str], codes: list[str], fixed: bool = False) -> Plan:
    """The sites of the project's findings, and each file's instrumented source;
    `fixed`: the source with memlint's fixes applied (`--fix --unsafe-fixes`, in
    memory), probed at the same sites, for `--compare-fix`."""
    result = Plan()
    files, warnings = project_files(paths)
    result.errors.extend(warnings)
    probe = 0
    for path in files:
        try:
            text = read_source(path).text
        except (OSError, DecodeError) as exc:
            result.errors.append(f"{path}: cannot read: {exc}")
            continue
        findings, _ = lint_source(text, path, codes)
        findings = [f for f in findings if f.code in targets.PROBED_CODES or library_sites.site_for(f.code)]
        path = os.path.normpath(path)
        if not findings:
            continue
        try:
            parsed = targets.parse(text, path)
        except Exception as exc:  # noqa: BLE001 - a file that does not parse is reported, the rest still run
            result.errors.append(f"{path}: cannot parse: {exc}")
            continue
        nodes: dict[int, int] = {}  # id(loop or function) -> probe
        probed: dict[int, cst.CSTNode] = {}  # probe -> its loop or function
        stores: dict[int, tuple[int, int]] = {}  # id(a finding's container) -> (probe, store)
        sites: list[Site] = []
        library: list[Site] = []
        for finding in findings:
            lib = library_sites.site_for(finding.code)
            if lib is not None:
                library.append(_library_site(result, lib, probe, path, finding))
                probe += 1
                continue
            loop, why = targets.loop_for(parsed, finding)
            node, kind, info = loop, "loop", None
            if loop is not None:
                info = parsed.infos[parsed.ordinal(loop)]
            else:
                node = targets.function_for(parsed, finding)
                if node is not None:
                    kind, info = "call", targets.function_info(parsed, node)
            if node is None:
                sites.append(Site(None, path, finding, None, why="no loop or function of this file runs it"))
                continue
            if id(node) not in nodes:
                nodes[id(node)] = probe
                probed[probe] = node
                probe += 1
            site = Site(nodes[id(node)], path, finding, info, kind)
            container = targets.store_container(parsed, finding)
            if container is not None and not fixed:
                site.store = len(result.sites) + len(sites)
                stores[id(container)] = (site.probe, site.store)
            sites.append(site)
        if fixed:
            source, placed = _instrument_fixed(parsed, text, path, codes, probed)
        else:
            source, placed = instrument_all(parsed.module, nodes, stores)
        for site in sites:
            if site.probe is not None and site.probe not in placed:
                site.why = "its function's first statement takes no probe (a `while`, or a nested `def`)"
                site.probe = None
        probes = sorted(placed)
        if probes or library:  # a file with library sites only: still run from its (fixed) source
            result.files[os.path.realpath(path)] = {"source": source, "probes": probes}
            result.calls.extend(s.probe for s in sites if s.kind == "call" and s.probe is not None)
        result.sites.extend(sites + library)
    result.calls = sorted(set(result.calls))
    return result


def _library_site(result: Plan, lib: library_sites.LibrarySite, probe: int, path: str, finding: Finding) -> Site:
    """A finding whose loop is the framework's: probed per call of `lib` (see `library_sites`)."""
    result.library.append({"module": lib.module, "qualname": lib.qualname, "probe": probe})
    result.calls.append(probe)
    row, column = finding.location.row, finding.location.column
    info = targets.LoopInfo(-1, row, column, row, "library", f"{lib.name} (one call per {lib.iteration})")
    return Site(probe, path, finding, info, "call")


def _instrument_fixed(parsed: targets.Parsed, text: str, path: str, codes: list[str],
                      probed: dict[int, cst.CSTNode]) -> tuple[str, set[int]]:
    """The fixed source of a file, instrumented at the counterparts of its sites: a
    loop by its ordinal (fixes add no loop and remove none), a function by its name
    and class."""
    from memlint.fixes import fix_source

    fixed_text = fix_source(text, path, codes, unsafe=True).text
    try:
        fixed = targets.parse(fixed_text, path)
    except Exception:  # noqa: BLE001 - a fix that breaks the file: the fixed run runs it as it is
        return fixed_text, set()
    nodes: dict[int, int] = {}
    for probe, node in probed.items():
        if isinstance(node, cst.FunctionDef):
            match = _same_function(parsed, fixed, node)
        else:
            ordinal = parsed.ordinal(node)
            match = fixed.loops[ordinal] if len(fixed.loops) == len(parsed.loops) else None
        if match is not None:
            nodes[id(match)] = probe
    return instrument_all(fixed.module, nodes)


def _same_function(parsed: targets.Parsed, fixed: targets.Parsed, func: cst.FunctionDef) -> cst.FunctionDef | None:
    def qualified(model, node) -> tuple:
        owner = model.enclosing_class(node)
        return (owner.name.value if owner is not None else None, node.name.value)

    want = qualified(parsed.model, func)
    found = [f for f in fixed.model.tree.by_type.get(cst.FunctionDef, ()) if qualified(fixed.model, f) == want]
    return found[0] if len(found) == 1 else None


def verify_command(paths: list[str], argv: list[str], options: Options, snapshot_dir: str | None = None,
                   progress=None) -> ScriptResult:
    result = ScriptResult(shlex.join(argv), command=list(argv))
    work = plan(paths, options.codes)
    if work.errors:
        result.reason = "; ".join(work.errors)
    probes = sorted({p for f in work.files.values() for p in f["probes"]} | {e["probe"] for e in work.library})
    if not work.sites:
        return result
    if not probes:
        result.items = [Item(s.path, s.finding, None, Measure(NOT_REACHED, note=s.why)) for s in work.sites]
        return result
    if snapshot_dir:
        os.makedirs(snapshot_dir, exist_ok=True)
    manifest = {
        "files": work.files,
        "probes": probes,
        "calls": work.calls,
        "library": work.library,
        "iterations": options.iterations,
        "limit_bytes": options.limit_bytes,
        "snapshot_dir": os.path.abspath(snapshot_dir) if snapshot_dir else None,
    }
    run = command.run(argv, manifest, options.device, options.timeout, progress, label=result.path)
    result.output = run.output
    _describe(result, run)
    per_site = [_items(site, run, result) for site in work.sites]
    for items in per_site:
        result.items.extend(items)
    if options.compare_fix:
        _compare_fix(paths, argv, options, manifest, per_site, progress, result.path)
    return result


def _compare_fix(paths, argv, options: Options, manifest: dict, per_site: list[list[Item]], progress, label: str) -> None:
    """Run the command again with memlint's fixes applied in memory to the instrumented
    modules (files on disk unchanged), to its end (an error the fix causes after the
    loop must show), and give each item, per rank, its after-fix measure."""
    fixed = plan(paths, options.codes, fixed=True)
    probes = sorted({p for f in fixed.files.values() for p in f["probes"]} | {e["probe"] for e in fixed.library})
    if len(fixed.sites) != len(per_site):  # the lint changed between the two plans
        return
    after = ScriptResult(label + " (fixed)", command=list(argv))
    run = None
    if probes:
        fixed_manifest = {**manifest, "files": fixed.files, "probes": probes, "calls": fixed.calls,
                          "library": fixed.library, "snapshot_dir": None}
        run = command.run(argv, fixed_manifest, options.device, options.timeout, progress, label=after.path,
                          to_the_end=True)
        _describe(after, run)
    for site, items in zip(fixed.sites, per_site):
        if run is None or site.probe is None:
            measures = {None: Measure(NOT_REACHED, note=site.why or "no site to probe in the fixed source")}
        else:
            measures = {i.rank: i.before for i in _items(site, run, after)}
            if after.error:
                for m in measures.values():
                    m.error = m.error or after.error
        for item in items:
            item.after = measures.get(item.rank) or next(iter(measures.values()))


def _describe(result: ScriptResult, run: command.CommandRun) -> None:
    starts = [e for p in run.processes.values() for e in p.events if e.get("ev") == "start"]
    if starts:
        result.device, result.torch = starts[0].get("device", ""), starts[0].get("torch", "")
    if run.start_error:
        result.error = run.start_error
    elif not run.processes:
        why = command.python_flags_skip_site(run.argv)
        result.error = "no Python process of the command loaded memlint's import hook" + (
            f": {why}" if why else " (not a Python command, or python -I/-S/-E, which skip sitecustomize)"
        )
    elif not any(p.entered for p in run.processes.values()):
        failed = next((p for p in run.processes.values() if p.failed()), None)
        if failed is not None:
            result.error = "the command failed before reaching any probed site"
        elif run.returncode not in (None, 0):
            result.error = f"the command exited with code {run.returncode} before reaching any probed site"


def _outcome(process: command.Process, run: command.CommandRun, site: Site) -> script_run.Outcome:
    samples: dict[int, list] = {}
    left: set[int] = set()
    for event in process.events:
        if event.get("ev") == "s":
            samples.setdefault(event["p"], []).append((event["i"], event["b"], event["pk"], event["t"]))
        elif event.get("ev") == "leave":
            left.add(event["p"])
    outcome = script_run.Outcome("crashed", samples, set(process.done), left, elapsed=run.elapsed)
    for event in process.events:
        if event.get("ev") == "k":
            outcome.kept.setdefault(event["s"], []).append(event["b"])
    start = next((e for e in process.events if e.get("ev") == "start"), {})
    outcome.device, outcome.torch = start.get("device", ""), start.get("torch", "")
    end = process.end
    if end is not None:
        outcome.status = end["status"]
        outcome.exit_code = end.get("code")
        outcome.error = end.get("error", "")
        if outcome.status == "exit" and site.probe in samples and site.probe not in process.done | left:
            # A rank that leaves in the middle of a loop (multiprocessing catches its
            # exception and exits 1, printing the traceback): a failure, not an end.
            outcome.status = "error"
            outcome.error = "the process exited in the middle of it; the command's output ends with:\n" + run.output[-1500:]
        real = os.path.realpath(site.path)
        outcome.error_lines = [line for file, line in end.get("lines", []) if os.path.realpath(file) == real]
    elif process.vanished:
        outcome.error = "the process ended in the middle of the run without reporting (os._exit, or a signal)"
    elif run.stop_reason == "done":
        outcome.status = "stopped"
    elif run.stop_reason == "timeout":
        outcome.status = "timeout"
    elif run.stop_reason == "failure":
        outcome.error = "ended by memlint: another process of the command failed and this one made no progress since (waiting in a collective?)"
    else:
        outcome.error = "the process ended without reporting (killed by its launcher, or os._exit)"
    return outcome


def _chosen(site: Site, run: command.CommandRun) -> list[command.Process]:
    """The processes a site gets a verdict for: where some process entered it, one per
    rank when the command has ranks (the process of that rank that entered the site,
    else its first), else those that entered it; where none did, the one that failed."""
    processes = sorted(run.processes.values(), key=lambda p: p.pid)
    if not any(site.probe in p.entered for p in processes):
        return [p for p in processes if p.failed()][:1]
    by_rank: dict[int, list[command.Process]] = {}
    for process in processes:
        if process.rank is not None:
            by_rank.setdefault(process.rank, []).append(process)
    if by_rank:
        chosen = []
        for rank in sorted(by_rank):
            group = by_rank[rank]
            entered = [p for p in group if site.probe in p.entered]
            pids = {p.pid for p in group}
            chosen.append((entered or [p for p in group if p.ppid not in pids] or group)[0])
        return chosen
    return [p for p in processes if site.probe in p.entered]


def _items(site: Site, run: command.CommandRun, result: ScriptResult) -> list[Item]:
    def item(measure: Measure, rank: int | None = None, allocations=None) -> Item:
        return Item(site.path, site.finding, site.info, measure, rank=rank, site_kind=site.kind,
                    allocations=allocations or [])

    if site.probe is None:
        return [item(Measure(NOT_REACHED, note=site.why))]
    if result.error and not any(site.probe in p.entered for p in run.processes.values()):
        failed = [p for p in run.processes.values() if p.failed()]
        if failed or run.start_error:
            error = failed[0].end.get("error", "") if failed else ""
            return [item(Measure(ERROR, note=result.error, error=error or run.output[-1500:]))]
        return [item(Measure(NOT_REACHED, note=result.error, error=run.output[-1500:]))]
    chosen = _chosen(site, run)
    if not chosen:
        real = os.path.realpath(site.path)
        if real not in run.imported:
            note = "no process of the command imported this file"
        elif run.stop_reason == "timeout":
            note = f"timed out after {run.elapsed:.0f}s before it was reached"
        elif run.stop_reason == "done":
            note = "imported, but not run by the time the other sites had their iterations (the run was ended then)"
        else:
            note = "imported, but the command ended without running it"
        return [item(Measure(NOT_REACHED, note=note))]
    items = []
    for process in chosen:
        outcome = _outcome(process, run, site)
        measure = judge(site.probe, site.info, outcome)
        if site.store is not None:
            measure = attribute(measure, outcome.kept.get(site.store))
        if measure.verdict == NOT_REACHED and os.path.realpath(site.path) not in run.imported:
            measure.note = "no process of the command imported this file"
        items.append(item(measure, process.rank, _allocations(process, site.probe, measure.slope_mib)))
    return items


def _allocations(process: command.Process, probe: int, slope_mib: float) -> list[dict]:
    """Where what grows was allocated, largest first, as many lines as add up to no more
    than the measured slope (a line that does not grow is not listed)."""
    for event in process.events:
        if event.get("ev") == "alloc" and event["p"] == probe:
            iters = max(1, event.get("iters", 1))
            lines, total = [], 0.0
            for site in event["sites"]:
                per_iter = site["bytes"] / MIB / iters
                if total + per_iter > slope_mib * 1.05:
                    continue
                total += per_iter
                lines.append({
                    "file": site["frames"][0][0],
                    "line": site["frames"][0][1],
                    "function": site["frames"][0][2],
                    "mib_per_iter": round(per_iter, 6),
                    "stack": [{"file": f, "line": n, "function": fn} for f, n, fn in site["frames"]],
                })
            return lines
    return []
