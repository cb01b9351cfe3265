"""Run a user's command (`memlint verify -- COMMAND`) with the import hook, read
what each of its Python processes reports, and make sure all of them end.

The command runs in a session of its own, stdin closed, its output to a file.
Every Python process it starts (the launcher, each rank, workers) loads a
generated `sitecustomize` from a temporary directory put first on
`PYTHONPATH` (chaining to the one it shadows), which installs
`bootstrap.install`. Each process writes `p<pid>.jsonl` in the run directory.

The run ends when the command exits, when every probed site of the imported
modules has its iterations in every process that entered it, a few seconds
after a process failed while the others stopped making progress (ranks
waiting in a collective for a rank that died), or at the timeout. Ending it
kills every process that carries the run's token in its environment (found
in /proc, so ranks that torchrun started in sessions of their own and
daemons that double-forked are found too), the command's process group and
every process that reported: SIGTERM, then SIGKILL for those that ignore it.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from typing import Callable

from memlint.verify.bootstrap import MANIFEST_ENV, TOKEN_ENV
from memlint.verify.script_run import file_tail

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FAILURE_GRACE = 5.0  # seconds without a sample after a process failed
IDLE_AFTER_DONE = 5.0  # at least this long waiting for imported sites nothing entered, once the rest is done
TERM_GRACE = 2.0  # seconds between SIGTERM and SIGKILL

SITECUSTOMIZE = '''\
# Written by `memlint verify` for one run, and deleted with it.
import os as _os
import sys as _sys


def _memlint_chain():
    """Run the sitecustomize this one shadows, if there is one."""
    import importlib.machinery
    import importlib.util

    here = _os.path.dirname(_os.path.abspath(__file__))
    rest = [p for p in _sys.path if _os.path.abspath(p or ".") != here]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", rest)
    if spec is not None and spec.loader is not None:
        spec.loader.exec_module(importlib.util.module_from_spec(spec))


def _memlint_install():
    _sys.path.insert(0, {root!r})
    try:
        import importlib
        bootstrap = importlib.import_module({installer!r})
    finally:
        _sys.path.remove({root!r})
    bootstrap.install()


try:
    _memlint_chain()
except Exception as _exc:  # noqa: BLE001 - theirs failed; ours still runs
    _sys.stderr.write("memlint verify: the project's sitecustomize failed: %r\\n" % (_exc,))
_memlint_install()
'''


@dataclass
class Process:
    """What one Python process of the command reported."""

    pid: int
    ppid: int = 0
    argv: list[str] = field(default_factory=list)
    rank: int | None = None
    events: list[dict] = field(default_factory=list)
    entered: set[int] = field(default_factory=set)
    done: set[int] = field(default_factory=set)
    counts: dict[int, int] = field(default_factory=dict)
    end: dict | None = None
    vanished: bool = False  # gone without an end event (os._exit, a signal) in the middle of a site
    last_sample: float = 0.0
    first_sample: float = 0.0

    def failed(self) -> bool:
        return self.vanished or (self.end is not None and self.end.get("status") in ("error", "oom"))


@dataclass
class CommandRun:
    argv: list[str]
    processes: dict[int, Process] = field(default_factory=dict)
    imported: dict[str, list[int]] = field(default_factory=dict)  # file -> its probes, once some process imported it
    stop_reason: str = ""  # "" (the command ended) | "done" | "failure" | "timeout"
    returncode: int | None = None
    start_error: str = ""  # the command could not be started
    output: str = ""  # the tail of what the command printed
    elapsed: float = 0.0


Progress = Callable[[str, dict[int, int], float], None]


def write_sitecustomize(directory: str, installer: str = "memlint.verify.bootstrap") -> None:
    """`installer`: the module whose `install()` runs in every Python process (`memlint estimate` has its own)."""
    with open(os.path.join(directory, "sitecustomize.py"), "w", encoding="utf-8") as handle:
        handle.write(SITECUSTOMIZE.format(root=_ROOT, installer=installer))


def command_env(site_dir: str, manifest: str, token: str, device: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = site_dir + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env[MANIFEST_ENV] = manifest
    env[TOKEN_ENV] = token
    env["PYTHONUNBUFFERED"] = "1"
    if device == "cpu":
        env["CUDA_VISIBLE_DEVICES"] = ""
    return env


def run(argv: list[str], manifest: dict, device: str, timeout: float, progress: Progress | None = None,
        label: str = "", poll_interval: float = 0.1, to_the_end: bool = False) -> CommandRun:
    """Run `argv` with `manifest` (files, probes, calls, iterations, ...) until it ends or is ended
    (`to_the_end`: not when the sites have their iterations, only at a failure or the timeout)."""
    workdir = tempfile.mkdtemp(prefix="memlint-verify-")
    results = os.path.join(workdir, "results")
    os.mkdir(results)
    write_sitecustomize(workdir)
    manifest_path = os.path.join(workdir, "manifest.json")
    with open(manifest_path, "w", encoding="utf-8") as handle:
        json.dump({**manifest, "device": device, "results": results}, handle)
    token = secrets.token_hex(8)
    output = os.path.join(workdir, "output.txt")
    outcome = CommandRun(list(argv))
    started = time.monotonic()
    proc = None
    try:
        with open(output, "wb") as sink:
            try:
                proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=sink, stderr=subprocess.STDOUT,
                                        env=command_env(workdir, manifest_path, token, device), start_new_session=True)
            except OSError as exc:
                outcome.start_error = f"cannot run {argv[0]!r}: {exc.strerror or exc}"
                return outcome
        reader = _Reader(results, outcome)
        while True:
            outcome.returncode = proc.poll()
            reader.read()
            now = time.monotonic()
            if progress is not None:
                progress(label, _counts(outcome), now - started)
            if outcome.returncode is not None:
                break
            for process in outcome.processes.values():
                if process.end is None and not process.vanished and not process.entered <= process.done and not alive(process.pid):
                    process.vanished = True
                    process.last_sample = now
            reason = _why_stop(outcome, now)
            if reason == "done" and to_the_end:
                reason = ""
            if not reason and now - started > timeout:
                reason = "timeout"
            if reason:
                outcome.stop_reason = reason
                break
            time.sleep(poll_interval)
    finally:
        if proc is not None:
            terminate(proc, token, {p.pid for p in outcome.processes.values()})
            reader.read()
        outcome.elapsed = time.monotonic() - started
        outcome.output = file_tail(output)
        shutil.rmtree(workdir, ignore_errors=True)
    return outcome


def _counts(outcome: CommandRun) -> dict[int, int]:
    counts: dict[int, int] = {}
    for process in outcome.processes.values():
        for probe, count in process.counts.items():
            counts[probe] = max(counts.get(probe, 0), count)
    return counts


def _why_stop(outcome: CommandRun, now: float) -> str:
    """"done" once every entered site has its iterations in every process that entered it
    (or that process ended), and either every site of the imported modules was entered or
    none was newly entered for a while (a hook of an imported module the command never
    calls: as long again as the sites took, at least IDLE_AFTER_DONE seconds)."""
    processes = outcome.processes.values()
    pending = {p for probes in outcome.imported.values() for p in probes}
    entered = {p for process in processes for p in process.entered}
    if entered and all(process.entered <= process.done or process.end is not None for process in processes):
        if pending <= entered:
            return "done"
        first = min(process.first_sample for process in processes if process.entered)
        last = max(process.last_sample for process in processes)
        if now - last > max(IDLE_AFTER_DONE, last - first):
            return "done"
    if any(process.failed() for process in processes):
        last = max([process.last_sample for process in processes] + [p.end.get("_seen", 0.0) for p in processes if p.end])
        if now - last > FAILURE_GRACE:
            return "failure"
    return ""


class _Reader:
    """Reads every process's results file as it grows."""

    def __init__(self, directory: str, outcome: CommandRun) -> None:
        self.directory = directory
        self.outcome = outcome
        self.offsets: dict[str, int] = {}
        self.pending: dict[str, str] = {}

    def read(self) -> None:
        try:
            names = os.listdir(self.directory)
        except OSError:
            return
        for name in names:
            path = os.path.join(self.directory, name)
            try:
                with open(path, encoding="utf-8", errors="replace") as handle:
                    handle.seek(self.offsets.get(name, 0))
                    text = handle.read()
                    self.offsets[name] = handle.tell()
            except OSError:
                continue
            text = self.pending.get(name, "") + text
            *lines, self.pending[name] = text.split("\n")
            pid = int(name[1:].split(".")[0])
            process = self.outcome.processes.setdefault(pid, Process(pid))
            for line in lines:
                try:
                    event = json.loads(line)
                except ValueError:
                    continue  # a line cut short by a kill
                self._add(process, event)

    def _add(self, process: Process, event: dict) -> None:
        kind = event.get("ev")
        now = time.monotonic()
        process.events.append(event)
        if kind == "hello":
            process.ppid = event.get("ppid", 0)
            process.argv = event.get("argv", [])
            process.rank = event.get("rank")
        elif kind == "s":
            probe = event["p"]
            process.entered.add(probe)
            process.counts[probe] = event["i"]
            process.first_sample = process.first_sample or now
            process.last_sample = now
            if event.get("r") is not None:
                process.rank = event["r"]
        elif kind == "done":
            process.done.add(event["p"])
        elif kind == "imp":
            self.outcome.imported[event["file"]] = event["probes"]
        elif kind == "end" and process.end is None:
            if self.outcome.stop_reason and event.get("status") in ("error", "oom"):
                return  # read after memlint began to end the run: its SIGTERM, not the command's failure
            process.end = {**event, "_seen": now}


# -- ending every process of the run -------------------------------------------
def carrying(token: str) -> set[int]:
    """Live processes whose environment carries the run's token (Linux; elsewhere none)."""
    needle = f"{TOKEN_ENV}={token}".encode()
    found: set[int] = set()
    try:
        names = os.listdir("/proc")
    except OSError:
        return found
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as handle:
                if needle in handle.read().split(b"\0"):
                    found.add(int(name))
        except OSError:
            continue
    found.discard(os.getpid())
    return found


def alive(pid: int) -> bool:
    """Running (a zombie, waiting for its parent to reap it, is not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True


def terminate(proc: subprocess.Popen, token: str, reported: set[int]) -> None:
    """End the command and everything it started: SIGTERM, then SIGKILL."""
    own_group = os.getpgrp()
    for sig, grace in ((signal.SIGTERM, TERM_GRACE), (signal.SIGKILL, 5.0)):
        # Where /proc tells which processes carry the token, only those: a pid that reported
        # and has since exited may already belong to someone else.
        ours = carrying(token) if os.path.isdir("/proc") else reported
        targets = {p for p in ({proc.pid} | ours) if p != os.getpid() and alive(p)}
        if proc.poll() is None:
            targets.add(proc.pid)
        if not targets:
            break
        for pid in targets:
            try:
                if os.getpgid(pid) == pid and pid != own_group:
                    os.killpg(pid, sig)  # a group leader (the command, a torchrun rank): with its group
            except OSError:
                pass
            try:
                os.kill(pid, sig)
            except OSError:
                pass
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline:
            proc.poll()
            if not any(alive(p) for p in targets if p != proc.pid) and proc.poll() is not None:
                break
            time.sleep(0.05)
    try:
        proc.wait(5)
    except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL was sent
        pass


def python_flags_skip_site(argv: list[str]) -> str:
    """Why Python would not load the hook: `-I`, `-S` or `-E` on a python command line ("" if none)."""
    if not argv or "python" not in os.path.basename(argv[0]):
        return ""
    for arg in argv[1:]:
        if not arg.startswith("-") or arg in ("-m", "-c"):
            break
        for flag in ("I", "S", "E"):
            if arg.startswith("-") and not arg.startswith("--") and flag in arg[1:]:
                return f"`{argv[0]} -{flag}` skips sitecustomize/PYTHONPATH, where memlint's import hook is installed"
    return ""
