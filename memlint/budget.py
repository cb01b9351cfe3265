"""A CPU budget for each analysis of one file, so that no file costs minutes in silence.

Every analysis is meant to be linear in the file's size (benchmarks/big_files.py
checks); this guard is for the file that proves one is not. The engine names the
analysis that runs (`Guard.current`); a profiling timer (SIGPROF, CPU time, so a
loaded machine does not trip it) charges each tick to that analysis and, once it
has used its budget, raises `BudgetExceeded` inside it. The engine stops that
analysis with a one-line note and keeps the file's other findings.

Timers interrupt only the main thread, where the CLI and its worker processes
lint. A language server lints on a thread: there the engine calls `Guard.poll`
between two calls of an analysis, which stops it instead. LibCST's parser is
native code and cannot be interrupted: files over 3 MB are only checked for
syntax (engine.MAX_ANALYSED_BYTES).
"""

from __future__ import annotations

import os
import signal
import threading
import time
from contextlib import contextmanager
from typing import Iterator

DEFAULT_BUDGET_S = 20.0  # CPU seconds per analysis per file; the slowest seen (a 50k-line file) takes ~3 s
BUDGET_VARIABLE = "MEMLINT_ANALYSIS_BUDGET"  # seconds; tests and debugging set it
_TICK_S = 0.05


class BudgetExceeded(Exception):
    def __init__(self, analysis: str, budget: float) -> None:
        super().__init__(f"{analysis} stopped after {budget:g} s of CPU on this file")
        self.analysis = analysis
        self.budget = budget


def budget_seconds() -> float:
    try:
        return float(os.environ.get(BUDGET_VARIABLE, DEFAULT_BUDGET_S))
    except ValueError:
        return DEFAULT_BUDGET_S


class Guard:
    """The budget of one file's analyses. The engine names the analysis that runs
    (`current`, a plain attribute: it changes on every call of a rule's handler)."""

    def __init__(self, budget: float | None = None) -> None:
        self.budget = budget_seconds() if budget is None else budget
        self.current: str | None = None
        self.spent: dict[str, float] = {}
        # Timers interrupt the main thread only; elsewhere the engine calls `poll` between calls.
        self.timed = threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer")
        self._polls = 0
        self._last = time.thread_time()

    @contextmanager
    def active(self) -> Iterator["Guard"]:
        """Arm the timer for one file."""
        if not self.timed:
            yield self
            return
        previous = signal.signal(signal.SIGPROF, self._tick)
        signal.setitimer(signal.ITIMER_PROF, _TICK_S, _TICK_S)
        try:
            yield self
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0, 0)
            signal.signal(signal.SIGPROF, previous)
            self.current = None

    def poll(self) -> None:
        """Between two calls of an analysis, on a thread without the timer: charge the CPU
        used since the last look (every 256 calls: reading the clock costs a system call)."""
        self._polls += 1
        if self._polls % 256:
            return
        now = time.thread_time()
        spent, self._last = now - self._last, now
        self._charge(spent)

    def _tick(self, signum: int, frame: object) -> None:
        self._charge(_TICK_S)

    def _charge(self, seconds: float) -> None:
        name = self.current
        if name is None:
            return
        total = self.spent[name] = self.spent.get(name, 0.0) + seconds
        if total > self.budget:
            self.current = None  # raised once: the engine's handling of it is not charged
            raise BudgetExceeded(name, self.budget)
