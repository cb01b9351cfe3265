"""`memlint verify PATHS [-- SCRIPT ARGS]`: prove findings by running the script.

The only memlint command that executes code: the paths it is given, each in a
child process of its own.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import threading

import click

from memlint.output import open_output

EXIT_OK, EXIT_FAILED, EXIT_ERROR = 0, 1, 2


class _VerifyCommand(click.Command):
    """Everything after `--` belongs to the script."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if "--" in args:
            index = args.index("--")
            ctx.meta["memlint.script_args"] = args[index + 1 :]
            args = args[:index]
        return super().parse_args(ctx, args)


class _Progress:
    """One self-erasing status line on stderr while scripts run (TTYs only)."""

    def __init__(self, enabled: bool, total: int, iterations: int, parallel: bool = False) -> None:
        self.enabled = enabled
        self.total = total
        self.iterations = iterations
        self.parallel = parallel
        self.index = 0
        self.finished = 0
        self.width = 0
        self.lock = threading.Lock()

    def next_script(self) -> None:
        with self.lock:
            self.index += 1

    def script_done(self) -> None:
        with self.lock:
            self.finished += 1

    def __call__(self, label: str, counts: dict[int, int], elapsed: float) -> None:
        if not self.enabled:
            return
        base = label.split(" (")[0]
        name = os.path.relpath(base) + label[len(base):]
        loops = ", ".join(f"{min(c, self.iterations)}/{self.iterations}" for _, c in sorted(counts.items()))
        where = f"{self.finished}/{self.total} done" if self.parallel else f"{self.index}/{self.total}"
        text = f"[{where}] {name}: {loops + ' iterations' if loops else 'starting'}, {elapsed:.0f}s"
        with self.lock:
            sys.stderr.write("\r" + text[:200].ljust(self.width))
            sys.stderr.flush()
            self.width = len(text[:200])

    def clear(self) -> None:
        if self.enabled and self.width:
            sys.stderr.write("\r" + " " * self.width + "\r")
            sys.stderr.flush()
            self.width = 0


def _run_all(jobs, script_args, options, device, workers, progress):
    """Verify each (path, is_case) job; with workers > 1, several at once, one
    launcher (fork server) per worker thread, results in the order given."""
    from memlint.verify import core, launch

    if workers == 1 or len(jobs) < 2:
        launcher = launch.launcher(device)
        try:
            results = []
            for path, case in jobs:
                progress.next_script()
                results.append(core.verify_script(path, script_args, options, launcher, progress, case))
                progress.script_done()
            return results
        finally:
            launcher.close()
    from concurrent.futures import ThreadPoolExecutor  # here: `memlint check` imports this module too

    threads = str(max(1, (os.cpu_count() or 1) // workers))
    local = threading.local()
    launchers = []
    lock = threading.Lock()

    def work(job):
        if not hasattr(local, "launcher"):
            local.launcher = launch.launcher(device, threads=threads)
            with lock:
                launchers.append(local.launcher)
        progress.next_script()
        try:
            return core.verify_script(job[0], script_args, options, local.launcher, progress, job[1])
        finally:
            progress.script_done()

    try:
        with ThreadPoolExecutor(max_workers=min(workers, len(jobs))) as pool:
            return list(pool.map(work, jobs))
    finally:
        for launcher in launchers:
            launcher.close()


def is_command(paths: tuple[str, ...], after: list[str]) -> bool:
    """Is what follows `--` a COMMAND (project mode) rather than the script's arguments?
    A command when no PATHS or a directory was given, or when its first word is a program
    on PATH (`memlint verify mypkg/loops.py -- python train.py`)."""
    if not after:
        return False
    if not paths or any(os.path.isdir(p) for p in paths):
        return True
    import shutil  # here: `memlint check` imports this module too

    return not after[0].startswith("-") and shutil.which(after[0]) is not None


@click.command("verify", cls=_VerifyCommand)
@click.argument("paths", nargs=-1, type=click.Path(exists=True))
@click.option("--iterations", "-n", default=30, show_default=True, type=click.IntRange(2), help="Iterations to measure per probed loop.")
@click.option("--timeout", default=300.0, show_default=True, type=click.FloatRange(min=1), help="Seconds before a script is stopped.")
@click.option("--device", type=click.Choice(["auto", "cuda", "cpu"]), default="auto", show_default=True,
              help="cuda: torch.cuda.memory_allocated; cpu: hide GPUs, count live tensor storages.")
@click.option("--compare-fix", is_flag=True, help="Also run with memlint's fixes applied (in memory) and compare (memory; step time for ML004/ML009).")
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--plot", "plot_file", type=click.Path(dir_okay=False), default=None, help="Draw memory per iteration to a PNG.")
@click.option("--memory-limit", type=click.IntRange(1), default=None, metavar="MIB",
              help="Device memory the script may use (cuda: a fraction of the GPU; cpu: the tracker's budget); beyond it the script gets an out-of-memory error.")
@click.option("-j", "--jobs", "workers", type=click.IntRange(1), default=1, show_default=True,
              help="Scripts to run at once (each gets its share of the CPU threads).")
@click.option("-o", "--output-file", type=click.Path(dir_okay=False), default=None, help="Write the report to a file.")
@click.option("--no-color", is_flag=True, help="Never colour the output.")
@click.option("--snapshot", "snapshot_dir", type=click.Path(file_okay=False), default=None,
              help="With -- COMMAND on a GPU: write PyTorch's memory snapshot (one pickle per rank) to this directory, for pytorch.org/memory_viz.")
@click.pass_context
def verify(
    ctx: click.Context,
    paths: tuple[str, ...],
    iterations: int,
    timeout: float,
    device: str,
    compare_fix: bool,
    output_format: str,
    plot_file: str | None,
    memory_limit: int | None,
    workers: int,
    output_file: str | None,
    no_color: bool,
    snapshot_dir: str | None,
) -> None:
    """Run PATHS and measure whether the loops memlint flags really grow.

    A file is linted, then run as `__main__` in a child process with a memory
    probe in each loop that holds an ML001–ML006 finding; the run stops after
    --iterations iterations of every probed loop, or at --timeout. Each
    finding gets a verdict from the memory slope: confirmed, not confirmed,
    not reached or error. The speed rules (ML004, ML009) are timed instead,
    in a run of their own: with --compare-fix, confirmed when the median step
    time drops beyond noise once the slow call is removed. A directory runs
    every test case in it whose first line is `# verify: leaks` or
    `# verify: flat`, and checks it (against memory only).

    `memlint verify [PATHS] -- COMMAND [ARGS]` (PATHS default `.`) lints the
    project and runs COMMAND (`python train.py`, `python -m pkg.train`,
    `torchrun ...`, `pytest ...`) with every module of PATHS that holds a
    finding instrumented when it is imported, in every Python process;
    verdicts are per rank, with the lines that allocate what grows.

    Exit codes: 0 nothing confirmed (or every test case held), 1 a leak or a
    slowdown was confirmed in a script (or a test case did not hold), 2 a
    usage error or a script memlint could not run (unreadable, no GPU for
    --device cuda).
    """
    from memlint.verify import cases, core, launch

    script_args = list(ctx.meta.get("memlint.script_args", []))
    if not paths and not script_args:
        click.echo("memlint: error: give PATHS to verify, or `-- COMMAND` to run", err=True)
        sys.exit(EXIT_ERROR)
    if importlib.util.find_spec("torch") is None:
        click.echo("memlint: error: `memlint verify` needs torch: pip install 'memlint-torch[verify]'", err=True)
        sys.exit(EXIT_ERROR)
    if plot_file and importlib.util.find_spec("matplotlib") is None:
        click.echo("memlint: error: --plot needs matplotlib: pip install 'memlint-torch[verify]'", err=True)
        sys.exit(EXIT_ERROR)
    if is_command(paths, script_args):
        options = core.Options(iterations=iterations, timeout=timeout, device=device, compare_fix=compare_fix,
                               limit_bytes=memory_limit * 1024 * 1024 if memory_limit else None)
        _verify_command(list(paths) or ["."], script_args, options, snapshot_dir, output_format, plot_file,
                        output_file, no_color)
    if snapshot_dir:
        click.echo("memlint: error: --snapshot needs `-- COMMAND`", err=True)
        sys.exit(EXIT_ERROR)
    jobs: list[tuple[str, bool | None]] = []
    for path in paths:
        if os.path.isdir(path):
            found = cases.discover(path)
            if not found:
                click.echo(f"memlint: warning: {path}: no test case with a `# verify:` first line", err=True)
            jobs.extend((p, True) for p in found)
        else:
            jobs.append((path, None))
    if script_args and len(jobs) > 1:
        click.echo("memlint: error: script arguments after `--` need exactly one script", err=True)
        sys.exit(EXIT_ERROR)
    options = core.Options(
        iterations=iterations,
        timeout=timeout,
        device=device,
        compare_fix=compare_fix,
        limit_bytes=memory_limit * 1024 * 1024 if memory_limit else None,
    )
    progress = _Progress(sys.stderr.isatty(), len(jobs), iterations, parallel=workers > 1)
    try:
        results = _run_all(jobs, script_args, options, device, workers, progress)
    except launch.ServerError as exc:
        progress.clear()
        click.echo(f"memlint: error: could not start scripts: {exc}", err=True)
        sys.exit(EXIT_ERROR)
    finally:
        progress.clear()

    results.extend(_imported_by(jobs, script_args, options))
    _write_report(results, output_format, output_file, no_color, plot_file)
    if any(_could_not_run(r) if r.expectation is None else r.error for r in results):
        sys.exit(EXIT_ERROR)
    failed = any(r.expectation is not None and not r.held for r in results)
    confirmed = any(
        i.before.verdict == core.CONFIRMED for r in results if r.expectation is None for i in r.items
    )
    sys.exit(EXIT_FAILED if failed or confirmed else EXIT_OK)


def _verify_command(paths, argv, options, snapshot_dir, output_format, plot_file, output_file, no_color) -> None:
    """`memlint verify [PATHS] -- COMMAND`; exits 2 when the command could not run (not
    found, failed before reaching anything, a process failed at a site), else 1 when a
    leak was confirmed on some rank, else 0."""
    from memlint.verify import core, project

    progress = _Progress(sys.stderr.isatty(), 1, options.iterations)
    try:
        result = project.verify_command(paths, argv, options, snapshot_dir, progress)
    finally:
        progress.clear()
    if result.reason:
        click.echo(f"memlint: warning: {result.reason}", err=True)
    _write_report([result], output_format, output_file, no_color, plot_file)
    if _could_not_run(result):
        sys.exit(EXIT_ERROR)
    sys.exit(EXIT_FAILED if any(i.before.verdict == core.CONFIRMED for i in result.items) else EXIT_OK)


def _could_not_run(result) -> bool:
    """Exit 2, in script and command mode alike: memlint could not verify the run at all, or
    a finding's verdict is `error` (the script crashed, died of a signal or failed before its
    loop: nothing was measured there)."""
    from memlint.verify import core

    return bool(result.error) or any(i.before.verdict == core.ERROR for i in result.items)


def _imported_by(jobs, script_args, options) -> list:
    """`memlint verify train.py` also proves the findings of the project modules that
    train.py imports: one more run, `-- python train.py`, with those modules instrumented
    (only when one of them holds a finding to probe)."""
    from memlint.verify import project, targets

    extra = []
    for path, case in jobs:
        if case:
            continue
        modules = project.imported_modules(path)
        work = project.plan(modules, [c for c in options.codes if c in targets.PROBED_CODES]) if modules else None
        if work is None or not work.files:
            continue
        result = project.verify_command(modules, [sys.executable, path, *script_args], options)
        result.items = [i for i in result.items if os.path.realpath(i.path) != os.path.realpath(path)]
        extra.append(result)
    return extra


def _write_report(results, output_format, output_file, no_color, plot_file) -> None:
    from memlint.verify import report

    stream = open_output(output_file) if output_file else sys.stdout
    try:
        if output_format == "json":
            report.write_json(results, stream)
        else:
            color = not no_color and output_file is None and "NO_COLOR" not in os.environ and sys.stdout.isatty()
            report.write_text(results, stream, color)
    finally:
        if output_file:
            stream.close()
    if plot_file:
        if report.plot(results, plot_file) == 0:
            click.echo("memlint: warning: nothing to plot (no probed loop ran)", err=True)
