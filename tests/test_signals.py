"""Stopping a run like ruff: Ctrl-C exits 130, SIGTERM 143, workers end with the parent
(checked in /proc afterwards), finished files stay cached; `--jobs` and when workers start.

Real processes, made deterministic by a hook (HOOK) that the run imports: every file's
lint is logged (path, pid) as it finishes and again once the parent has taken its
result, and a file named `stuck.py` never finishes. The test signals the run only once
the log shows the other files handled; nothing here depends on the machine's speed.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from memlint.workers import PARALLEL_THRESHOLD, available_cpus, cgroup_cpu_quota

ROOT = Path(__file__).resolve().parents[1]
HOOK = textwrap.dedent(
    """\
    import os, sys, time
    import memlint.engine as engine
    import memlint.workers as workers

    real = engine.lint_path
    log = os.environ["HOOK_LOG"]

    def lint_path(path, codes):
        if path.endswith("stuck.py"):
            with open(log, "a") as handle:
                handle.write(f"stuck {os.getpid()}\\n")
            while True:  # a file whose analysis never ends
                time.sleep(0.05)
        result = real(path, codes)
        with open(log, "a") as handle:
            handle.write(f"done {os.getpid()} {path}\\n")
        return result

    engine.lint_path = lint_path  # the workers look it up on each file
    real_map = workers.parallel_map

    def parallel_map(*args, **kwargs):
        for result in real_map(*args, **kwargs):
            yield result
            # the run asks for the next result: this one is in the cache (in memory) now
            with open(log, "a") as handle:
                handle.write(f"handled {os.getpid()} {result.path}\\n")

    workers.parallel_map = parallel_map
    from memlint.cli import main
    sys.argv[0] = "memlint"
    main()
    """
)
LEAK = "import torch\n\nlosses = []\nfor x in loader:\n    loss = model(x).sum()\n    loss.backward()\n    losses.append(loss)\n"


def _project(tmp_path: Path, files: int, stuck: bool) -> Path:
    src = tmp_path / "src"
    src.mkdir()
    for i in range(files):
        (src / f"m{i:02}.py").write_text(LEAK)
    if stuck:
        (src / "stuck.py").write_text(LEAK)
    return src


def _start(tmp_path: Path, *args: str) -> tuple[subprocess.Popen, Path]:
    log = tmp_path / "log.txt"
    log.write_text("")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HOOK_LOG": str(log)}
    env.pop("CI", None)
    process = subprocess.Popen(
        [sys.executable, "-c", HOOK, *args],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # as from a terminal: a run started in the background (`cmd &` in a script) inherits SIGINT
        # ignored, and Python then installs no KeyboardInterrupt handler, so Ctrl-C would do nothing
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    return process, log


def _wait_for(predicate, what: str, limit: float = 120.0) -> None:
    deadline = time.monotonic() + limit  # a bound on a hang, not a speed requirement
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def _lines(log: Path) -> list[list[str]]:
    return [line.split() for line in log.read_text().splitlines()]


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            state = handle.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def _children(pid: int) -> set[int]:
    found = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        found |= {int(p) for p in (task / "children").read_text().split()}
    return found


linux_only = pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc (Linux)")


@linux_only
@pytest.mark.parametrize("signum, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_stops_the_run_ends_the_workers_and_keeps_finished_files_cached(tmp_path, signum, code) -> None:
    src = _project(tmp_path, PARALLEL_THRESHOLD + 4, stuck=True)
    cache = tmp_path / "cache"
    process, log = _start(tmp_path, "--cache-dir", str(cache), "--jobs", "2", str(src))
    handled = lambda: sum(1 for line in _lines(log) if line[0] == "handled")  # noqa: E731
    _wait_for(lambda: handled() == PARALLEL_THRESHOLD + 4 and any(line[0] == "stuck" for line in _lines(log)), "the files")
    workers = _children(process.pid)
    assert len(workers) == 2
    assert process.pid not in {int(line[1]) for line in _lines(log) if line[0] in ("done", "stuck")}
    process.send_signal(signum)
    out, err = process.communicate(timeout=60)
    assert process.returncode == code, err
    assert "Traceback" not in err and err.strip().splitlines()[-1] in ("memlint: interrupted", "memlint: terminated")
    _wait_for(lambda: not any(_alive(pid) for pid in workers), "the workers to end", 10)
    (saved,) = cache.glob("*.json")
    cached = json.loads(saved.read_text())["files"]
    assert len(cached) == PARALLEL_THRESHOLD + 4 and not any(path.endswith("stuck.py") for path in cached)


@linux_only
def test_workers_end_when_the_parent_is_killed(tmp_path) -> None:
    src = _project(tmp_path, PARALLEL_THRESHOLD, stuck=True)
    process, log = _start(tmp_path, "--no-cache", "--jobs", "2", str(src))
    _wait_for(lambda: any(line[0] == "stuck" for line in _lines(log)), "the stuck file")
    workers = _children(process.pid)
    assert workers
    process.kill()  # SIGKILL: no handler runs; the kernel tells the workers (PR_SET_PDEATHSIG)
    process.communicate(timeout=60)
    _wait_for(lambda: not any(_alive(pid) for pid in workers), "the workers to end", 10)


@linux_only
def test_small_runs_and_jobs_1_use_no_worker_process(tmp_path) -> None:
    src = _project(tmp_path, PARALLEL_THRESHOLD - 1, stuck=False)
    process, log = _start(tmp_path, "--no-cache", str(src))
    process.communicate(timeout=120)
    assert process.returncode == 1
    assert {int(line[1]) for line in _lines(log) if line[0] == "done"} == {process.pid}

    (src / "more.py").write_text(LEAK)  # now PARALLEL_THRESHOLD files
    process, log = _start(tmp_path, "--no-cache", "--jobs", "1", str(src))
    process.communicate(timeout=120)
    assert {int(line[1]) for line in _lines(log) if line[0] == "done"} == {process.pid}


def test_jobs_must_be_positive(tmp_path) -> None:
    from click.testing import CliRunner

    from memlint.cli import main

    result = CliRunner().invoke(main, ["lint", "--jobs", "0", str(tmp_path)])
    assert result.exit_code == 2 and "--jobs" in result.output


def test_the_default_jobs_follow_the_cgroup_quota(tmp_path) -> None:
    (tmp_path / "cpu.max").write_text("150000 100000\n")
    assert cgroup_cpu_quota(str(tmp_path)) == 1.5
    (tmp_path / "cpu.max").write_text("max 100000\n")
    assert cgroup_cpu_quota(str(tmp_path)) is None
    (tmp_path / "cpu.max").unlink()
    (tmp_path / "cpu").mkdir()
    (tmp_path / "cpu" / "cpu.cfs_quota_us").write_text("200000\n")
    (tmp_path / "cpu" / "cpu.cfs_period_us").write_text("100000\n")
    assert cgroup_cpu_quota(str(tmp_path)) == 2.0
    (tmp_path / "cpu" / "cpu.cfs_quota_us").write_text("-1\n")
    assert cgroup_cpu_quota(str(tmp_path)) is None
    assert 1 <= available_cpus() <= (os.cpu_count() or 1)


def test_an_internal_error_is_one_line_and_exit_2(monkeypatch, tmp_path) -> None:
    from click.testing import CliRunner

    import memlint.cli as cli

    def crash(*args, **kwargs):
        raise AttributeError("'NoneType' object has no attribute 'findings'")

    monkeypatch.setattr(cli, "lint_files", crash)
    (tmp_path / "a.py").write_text("x = 1\n")
    result = CliRunner().invoke(cli.main, ["lint", "--exit-zero", str(tmp_path)])
    assert result.exit_code == 2
    assert result.output.strip() == "memlint: error: internal error: AttributeError: 'NoneType' object has no attribute 'findings'"


def test_a_damaged_cache_entry_is_a_miss(tmp_path) -> None:
    from click.testing import CliRunner

    from memlint.cli import main

    (tmp_path / "a.py").write_text(LEAK)
    cache = tmp_path / "cache"
    first = CliRunner().invoke(main, ["lint", "--cache-dir", str(cache), str(tmp_path / "a.py")])
    (saved,) = cache.glob("*.json")
    entries = json.loads(saved.read_text())
    for entry in entries["files"].values():
        entry["findings"] = [None, 3]
    saved.write_text(json.dumps(entries))
    again = CliRunner().invoke(main, ["lint", "--cache-dir", str(cache), str(tmp_path / "a.py")])
    assert first.exit_code == again.exit_code == 1 and again.output == first.output


def test_progress_is_shown_only_for_long_runs_on_a_terminal(tmp_path) -> None:
    import click

    from memlint import workers

    assert isinstance(workers._progress(10_000, False).__enter__(), workers._NoBar)  # CI, pre-commit, --quiet
    assert isinstance(workers._progress(workers.PROGRESS_MIN_FILES - 1, True).__enter__(), workers._NoBar)
    assert isinstance(workers._progress(workers.PROGRESS_MIN_FILES, True), click._termui_impl.ProgressBar)
    (tmp_path / "a.py").write_text(LEAK)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "memlint", "--no-cache", str(tmp_path)], env=env, capture_output=True, text=True
    )
    assert done.returncode == 1 and "Linting" not in done.stderr  # stderr is a pipe here
