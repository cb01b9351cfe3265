"""Run one instrumented script in a child and collect what its probes saw."""

from __future__ import annotations

import json
import os
import shutil
import signal
import tempfile
import time
from dataclasses import dataclass, field
from typing import Callable

from memlint.verify.launch import Job


@dataclass
class Request:
    """What to run: the instrumented source of `path`, and which probes it holds."""

    path: str
    source: str
    probes: list[int]
    argv: list[str] = field(default_factory=list)
    iterations: int = 30
    timeout: float = 300.0
    device: str = "auto"
    limit_bytes: int | None = None
    display_source: str | None = None  # the (fixed) source tracebacks should show
    label: str = ""
    timing: bool = False  # time the loops only (on CPU: no memory tracker)


@dataclass
class Outcome:
    status: str  # stopped | finished | exit | error | oom | timeout | crashed
    samples: dict[int, list[tuple[int, int, int, float]]]  # probe -> (iteration, bytes, peak, t)
    done: set[int]
    left: set[int]
    device: str = ""
    torch: str = ""
    exit_code: int | str | None = None
    error: str = ""
    error_lines: list[int] = field(default_factory=list)
    output: str = ""  # the tail of what the script printed
    elapsed: float = 0.0
    returncode: int | None = None
    internal: bool = False  # memlint could not start the script (no GPU, a bug), not the script's fault
    kept: dict[int, list[int]] = field(default_factory=dict)  # store -> bytes its container keeps, per sample

    def entered(self, probe: int) -> bool:
        return bool(self.samples.get(probe))


Progress = Callable[[str, dict[int, int], float], None]


def file_tail(path: str, limit: int = 4000) -> str:
    """The last `limit` bytes of a child's output file, decoded; empty when it is gone."""
    try:
        with open(path, "rb") as handle:
            handle.seek(0, os.SEEK_END)
            size = handle.tell()
            handle.seek(max(0, size - limit))
            return handle.read().decode("utf-8", "replace")
    except OSError:
        return ""


def run(job: Request, launcher, progress: Progress | None = None, poll_interval: float = 0.1) -> Outcome:
    workdir = tempfile.mkdtemp(prefix="memlint-verify-")
    results = os.path.join(workdir, "results.jsonl")
    output = os.path.join(workdir, "output.txt")
    config = os.path.join(workdir, "job.json")
    with open(config, "w", encoding="utf-8") as handle:
        json.dump(
            {
                "path": os.path.abspath(job.path),
                "source": job.source,
                "display_source": job.display_source,
                "argv": list(job.argv),
                "probes": list(job.probes),
                "iterations": job.iterations,
                "device": job.device,
                "limit_bytes": job.limit_bytes,
                "timing": job.timing,
                "results": results,
                "output": output,
            },
            handle,
        )
    open(results, "w").close()
    events: list[dict] = []
    started = time.monotonic()
    handle = None
    timed_out = False
    child: Job | None = None
    returncode = None
    try:
        child = launcher.start(config)
        started = time.monotonic()  # the timeout is the script's: not the wait for `import torch`
        handle = open(results, encoding="utf-8")
        pending = ""
        counts: dict[int, int] = {}
        while True:
            returncode = child.poll()
            pending = _read_events(handle, pending, events, counts)
            if progress is not None:
                progress(job.label, counts, time.monotonic() - started)
            if returncode is not None:
                break
            if time.monotonic() - started > job.timeout:
                timed_out = True
                child.kill()
                returncode = child.poll()
                break
            time.sleep(poll_interval)
        _read_events(handle, pending + "\n", events, counts)
    finally:
        if child is not None:
            if returncode is None:  # interrupted (Ctrl-C): never leave it running
                child.kill()
            child.cleanup()
        if handle is not None:
            handle.close()
    outcome = _outcome(events, timed_out, returncode, time.monotonic() - started)
    outcome.output = file_tail(output)
    shutil.rmtree(workdir, ignore_errors=True)
    return outcome


def _read_events(handle, pending: str, events: list[dict], counts: dict[int, int]) -> str:
    pending += handle.read()
    *lines, pending = pending.split("\n")
    for line in lines:
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut short by a kill
        events.append(event)
        if event.get("ev") == "s":
            counts[event["p"]] = event["i"]
    return pending


def _outcome(events: list[dict], timed_out: bool, returncode: int | None, elapsed: float) -> Outcome:
    samples: dict[int, list] = {}
    done: set[int] = set()
    left: set[int] = set()
    outcome = Outcome("crashed", samples, done, left, elapsed=elapsed, returncode=returncode)
    end = None
    for event in events:
        kind = event.get("ev")
        if kind == "s":
            samples.setdefault(event["p"], []).append((event["i"], event["b"], event["pk"], event["t"]))
        elif kind == "k":
            outcome.kept.setdefault(event["s"], []).append(event["b"])
        elif kind == "done":
            done.add(event["p"])
        elif kind == "leave":
            left.add(event["p"])
        elif kind == "start":
            outcome.device = event.get("device", "")
            outcome.torch = event.get("torch", "")
        elif kind == "end":
            end = event
    if end is not None:
        outcome.status = end["status"]
        outcome.exit_code = end.get("code")
        outcome.error = end.get("error", "")
        outcome.error_lines = end.get("lines", [])
        outcome.internal = bool(end.get("internal"))
    elif timed_out:
        outcome.status = "timeout"
    elif returncode is not None and returncode < 0:
        sig = -returncode
        name = signal.Signals(sig).name if sig in signal.Signals._value2member_map_ else str(sig)
        if sig == signal.SIGKILL:
            outcome.status = "oom"
            outcome.error = f"the script was killed by {name} (the kernel's out-of-memory killer?)"
        else:
            outcome.error = f"the script died of signal {name}"
    elif returncode not in (None, 0):
        outcome.error = f"the script's process ended with code {returncode} before reporting"
    else:  # os._exit(0) in the script
        outcome.status = "exit"
        outcome.exit_code = returncode
    return outcome
