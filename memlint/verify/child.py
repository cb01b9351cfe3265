"""The child side of `memlint verify`: install a tracker, run the instrumented
script as `__main__`, stream one JSON line per probe to the results file.

Runs in a process of its own (started by `script_run`), never in memlint's.
Results are streamed, so a run that is killed (timeout, kernel OOM killer)
still leaves every sample it took. Events, one JSON object per line:

    {"ev": "start", "device": ..., "torch": ...}
    {"ev": "s", "p": probe, "i": iteration, "b": bytes, "pk": peak in the iteration, "t": seconds}
                                         (t: perf_counter after the read, which synchronises a GPU
                                         except in a timing run: consecutive samples give the step time)
    {"ev": "k", "p": probe, "s": store, "i": iteration, "b": bytes}
                                         what a finding's container keeps alive (`kept_bytes`), at
                                         each sample of the loop around it, once it was first stored to
    {"ev": "leave", "p": probe}          the loop ended by itself
    {"ev": "done", "p": probe}           the loop ran its iterations
    {"ev": "alloc", "p": probe, "sites": [...], "iters": n}
                                         where the storages still alive were allocated (trackers that
                                         record allocation sites: `memlint verify -- COMMAND`)
    {"ev": "end", "status": "stopped" | "finished" | "exit" | "error" | "oom", ...}

Iteration 0 is the baseline, taken when the loop is first entered.
"""

from __future__ import annotations

import builtins
import json
import linecache
import os
import sys
import time
import traceback
import types

LOOP_HOOK = "__memlint_loop__"
WHILE_HOOK = "__memlint_while__"
HOST_HOOK = "__memlint_host__"
CALL_HOOK = "__memlint_call__"
STORE_HOOK = "__memlint_store__"
_OOM_TEXT = ("out of memory", "can't allocate memory", "cannot allocate memory")


class StopVerification(BaseException):
    """Raised by a probe once every probed loop has run its iterations.

    A BaseException, so that the script's `except Exception:` does not catch it.
    """


class Probes:
    """What the hooks do. `stop`: raise StopVerification once every probe ran its
    iterations (one script); False where the parent ends the run (a command, whose
    other processes may still be measuring). `calls`: probes of functions, one
    iteration per call."""

    def __init__(self, ids: list[int], iterations: int, tracker, emit, clock, stop: bool = True, calls=()) -> None:
        self.ids = set(ids)
        self.iterations = iterations
        self.tracker = tracker
        self.emit = emit
        self.clock = clock
        self.stop = stop
        self.calls = set(calls)
        from memlint.verify.stats import warmup_for

        self.marked = warmup_for(iterations)  # allocations are counted from the end of the warm-up
        self.count = {k: 0 for k in ids}
        self.baseline: set[int] = set()
        self.done: set[int] = set()
        self.truncated: set[int] = set()
        self.entries: dict[int, int] = {}
        self.inside: dict[int, bool] = {}
        self.window: dict[int, int] = {}  # probe -> peak since its last sample
        self.kept: dict[int, dict[int, object]] = {}  # probe -> store -> the container last stored to

    def _sample(self, k: int) -> None:
        used, peak = self.tracker.read()  # the peak since the last read, by any probe
        for j in self.window:
            self.window[j] = max(self.window[j], peak)
        top = self.window.get(k, peak)  # the peak since this loop's last sample: within its iteration
        self.window[k] = used
        self.emit({"ev": "s", "p": k, "i": self.count[k], "b": used, "pk": top, "t": round(self.clock(), 7)})
        counts = getattr(self.tracker, "counts", None)
        if counts is not None:
            from memlint.verify.trackers import kept_bytes

            for store, container in self.kept.get(k, {}).items():
                self.emit({"ev": "k", "p": k, "s": store, "i": self.count[k], "b": kept_bytes(container, counts)})
        if self.count[k] == self.marked and getattr(self.tracker, "sites", False):
            self.tracker.mark(k)

    def enter(self, k: int) -> bool:
        """The loop `k` starts (always True: a loop that was ended early runs as written again)."""
        self.entries[k] = self.entries.get(k, 0) + 1
        if k not in self.baseline:
            self.baseline.add(k)
            self._sample(k)
        return True

    def iteration(self, k: int) -> bool:
        """An iteration of loop `k` ended; False: end the loop now."""
        if k in self.done:
            return True  # measured already: let it run as written
        self.count[k] += 1
        self._sample(k)
        if self.count[k] >= self.iterations:
            self.done.add(k)
            if getattr(self.tracker, "sites", False):
                span = self.iterations - self.marked - (1 if getattr(self.tracker, "excludes_last", False) else 0)
                self.emit({"ev": "alloc", "p": k, "sites": self.tracker.allocations(k), "iters": span})
            self.emit({"ev": "done", "p": k})
            if self.stop and self.done >= self.ids:
                raise StopVerification
            if self.entries.get(k, 0) == 1 and k not in self.calls:
                # A long loop (one entry ran all its iterations): end it, so the
                # script goes on to the probed loops still to come. A loop entered
                # many times (inside a function called per step) is left alone:
                # ending it would change what every later call computes.
                self.truncated.add(k)
                self.emit({"ev": "truncated", "p": k})
                return False
        return True

    def leave(self, k: int) -> None:
        self.emit({"ev": "leave", "p": k})

    # -- the hooks the instrumented source calls -------------------------------
    def loop(self, k: int, iterable):
        return _Loop(self, k, iterable)

    def call(self, k: int, value=None):
        """A probed function was called: its first call is the baseline, each later one ends an iteration."""
        if k in self.baseline:
            self.iteration(k)
        else:
            self.enter(k)
        return value

    def store(self, k: int, store: int, container):
        """A finding's store statement ran (in loop `k`): keep its container to measure at each sample."""
        if k not in self.done:
            self.kept.setdefault(k, {})[store] = container
        return container

    def while_(self, k: int, condition) -> bool:
        if not self.inside.get(k):
            self.inside[k] = True
            go = self.enter(k)
        else:
            go = self.iteration(k)
        if go and condition:
            return True
        self.inside[k] = False
        if go:
            self.leave(k)
        return False


class _Loop:
    """Wraps a for loop's iterable: `__next__` runs when an iteration ends, however it ends."""

    __slots__ = ("probes", "k", "it", "first")

    def __init__(self, probes: Probes, k: int, iterable) -> None:
        self.probes = probes
        self.k = k
        self.it = iter(iterable)
        self.first = True

    def __iter__(self):
        return self

    def __next__(self):
        if self.first:
            self.first = False
            go = self.probes.enter(self.k)
        else:
            go = self.probes.iteration(self.k)
        if not go:
            raise StopIteration
        try:
            return next(self.it)
        except StopIteration:
            self.probes.leave(self.k)
            raise


def _identity(value):
    return value


def is_oom(exc: BaseException) -> bool:
    if isinstance(exc, MemoryError) or type(exc).__name__ == "OutOfMemoryError":
        return True
    text = str(exc).lower()
    return isinstance(exc, RuntimeError) and any(t in text for t in _OOM_TEXT)


def _user_traceback(exc: BaseException, path: str) -> str:
    """The traceback from the script's first frame on (the bootstrap's frames dropped)."""
    tb = exc.__traceback__
    here = os.path.abspath(__file__)
    while tb is not None and os.path.abspath(tb.tb_frame.f_code.co_filename) == here:
        tb = tb.tb_next
    return "".join(traceback.format_exception(type(exc), exc, tb))


def _redirect(output: str | None) -> None:
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    if output:
        fd = os.open(output, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        os.close(fd)


def main(config_path: str) -> None:
    """Run one verification job; never returns (os._exit), whatever the script does."""
    with open(config_path, encoding="utf-8") as handle:
        cfg = json.load(handle)
    _redirect(cfg.get("output"))
    sys.stdin = open(os.devnull, encoding="utf-8")
    results = open(cfg["results"], "a", buffering=1, encoding="utf-8")

    def emit(event: dict) -> None:
        results.write(json.dumps(event) + "\n")

    code_rc = 0
    try:
        _run(cfg, emit)
    except BaseException as exc:  # noqa: BLE001 - a failure of the bootstrap itself
        emit({"ev": "end", "status": "error", "error": "".join(traceback.format_exception(exc)), "internal": True})
        code_rc = 3
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except Exception:  # noqa: BLE001
            pass
        results.close()
        os._exit(code_rc)


def _run(cfg: dict, emit) -> None:
    path = cfg["path"]
    start = time.perf_counter()
    import torch  # noqa: F401 - before the tracker

    from memlint.verify.trackers import make

    try:
        tracker = make(cfg["device"], cfg.get("limit_bytes"), bool(cfg.get("timing")))
        code = compile(cfg["source"], path, "exec", dont_inherit=True)
    except BaseException as exc:  # noqa: BLE001 - no GPU for --device cuda, a bug in the instrumentation
        emit({"ev": "end", "status": "error", "error": "".join(traceback.format_exception_only(exc)), "internal": True})
        return
    if getattr(tracker, "single_thread", False) and "OMP_NUM_THREADS" not in os.environ:
        # A CPU timing run: on a busy machine, multi-threaded ops wait for each
        # other's threads (a 1 ms step measured at 100+ ms at times).
        torch.set_num_threads(1)
    if cfg.get("display_source") is not None:  # a fixed source: tracebacks show its lines
        lines = cfg["display_source"].splitlines(keepends=True)
        linecache.cache[path] = (len(cfg["display_source"]), None, lines, path)

    probes = Probes(cfg["probes"], cfg["iterations"], tracker, emit, lambda: time.perf_counter() - start)
    module = types.ModuleType("__main__")
    module.__dict__.update(
        {"__file__": path, "__builtins__": builtins, "__cached__": None, "__spec__": None, "__loader__": None}
    )
    module.__dict__[LOOP_HOOK] = probes.loop
    module.__dict__[WHILE_HOOK] = probes.while_
    module.__dict__[HOST_HOOK] = getattr(tracker, "to_host", _identity)
    module.__dict__[STORE_HOOK] = probes.store
    sys.modules["__main__"] = module
    sys.argv = [path, *cfg.get("argv", [])]
    script_dir = os.path.dirname(os.path.abspath(path))
    if sys.path and sys.path[0] in ("", os.getcwd()) or not sys.path:
        sys.path[:1] = [script_dir]
    else:
        sys.path.insert(0, script_dir)

    try:
        tracker.start()
    except BaseException as exc:  # noqa: BLE001 - e.g. --device cuda without a GPU
        emit({"ev": "end", "status": "error", "error": "".join(traceback.format_exception_only(exc)), "internal": True})
        return
    emit({"ev": "start", "device": tracker.describe(), "torch": torch.__version__, "t": time.perf_counter() - start})
    end: dict = {"ev": "end", "status": "finished"}
    try:
        exec(code, module.__dict__)
    except StopVerification:
        end["status"] = "stopped"
    except SystemExit as exc:
        end["status"] = "exit"
        end["code"] = exc.code if isinstance(exc.code, (int, type(None))) else str(exc.code)
    except BaseException as exc:  # noqa: BLE001 - the script's failure is a result
        end["status"] = "oom" if is_oom(exc) else "error"
        end["error"] = _user_traceback(exc, path)
        end["lines"] = [
            frame.lineno for frame in traceback.extract_tb(exc.__traceback__) if frame.filename == path
        ]
    finally:
        tracker.stop()
    end["t"] = round(time.perf_counter() - start, 6)
    emit(end)
