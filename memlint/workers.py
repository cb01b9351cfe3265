"""Lint many files: cache look-ups, then the rest in parallel processes, in a stable order.

Workers end with the run: they ignore SIGINT (the parent handles Ctrl-C and
terminates them), and the kernel sends them SIGTERM when the parent dies
(PR_SET_PDEATHSIG), so a cancelled CI job leaves no process behind. Each
file's results go into the cache as they arrive, so an interrupted run keeps
what it finished.
"""

from __future__ import annotations

import gc
import math
import os
from collections import deque
from contextlib import contextmanager
from itertools import islice
import signal
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Collection, Iterable, Iterator, TypeVar

from memlint.config import Settings
from memlint.models import FileError, Finding, LintResult
from memlint.analysis.questions import ANSWERS, same_answers
from memlint.cache import Cache, content_key, run_key
from memlint import project_view
from memlint.project_index import QUESTION_PARTS, Located, ProjectIndex, forget_packages, hidden, module_name, package_module_name

T = TypeVar("T")
R = TypeVar("R")
OLDER_COLLECTIONS_OFF = 1 << 30  # a worker's threshold of the older generations (`_worker_init`)
PARALLEL_THRESHOLD = 16  # below this, starting worker processes costs more than it saves
DEFAULT_MAX_JOBS = 8  # each worker holds a parsed file: more rarely pays for the memory
PROGRESS_MIN_FILES = 200  # a progress bar only for runs that take a while
# The workers keep the light trees of files their second phase may read again (engine.KeptTrees), up
# to this much source over all of them (some 60 times as much in trees), shared out evenly: on the
# bench corpus, 2 workers then parse and translate no file twice.
KEPT_SOURCE_BYTES = 5_000_000
_BATCH = 8  # jobs handed to a worker at once, at most (`_Queues.batch`)
_BATCHES_LEFT = 4  # while each worker has fewer than this many full batches left, they shrink
_LOOKAHEAD = 256  # free jobs `_Queues` looks through for one whose callees no other worker is analysing


def available_cpus() -> int:
    """CPUs this process may run on: its affinity mask, bounded by the cgroup CPU quota (containers, CI)."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    quota = cgroup_cpu_quota()
    if quota is not None:
        cpus = min(cpus, max(1, math.ceil(quota)))
    return max(1, cpus)


def cgroup_cpu_quota(root: str = "/sys/fs/cgroup") -> float | None:
    """The CPU quota in CPUs (cgroup v2 `cpu.max`, or v1 `cpu.cfs_quota_us`), None when unlimited."""
    try:
        with open(os.path.join(root, "cpu.max"), encoding="ascii") as handle:
            quota, period = handle.read().split()[:2]
        return None if quota == "max" else int(quota) / int(period)
    except (OSError, ValueError):
        pass
    try:
        with open(os.path.join(root, "cpu", "cpu.cfs_quota_us"), encoding="ascii") as handle:
            quota_us = int(handle.read())
        with open(os.path.join(root, "cpu", "cpu.cfs_period_us"), encoding="ascii") as handle:
            period_us = int(handle.read())
        return None if quota_us <= 0 or period_us <= 0 else quota_us / period_us
    except (OSError, ValueError):
        return None


def default_jobs() -> int:
    return min(available_cpus(), DEFAULT_MAX_JOBS)


@dataclass
class RunResult:
    findings: list[Finding] = field(default_factory=list)
    errors: list[FileError] = field(default_factory=list)
    files: int = 0
    # what --fix needs to fix only what lint reports: the project index, or how to make it (`index`)
    made_index: ProjectIndex | Callable[[], ProjectIndex] | None = None
    hidden: int = 0  # findings that rest on guesses, not shown without --preview

    @property
    def index(self) -> ProjectIndex | None:
        """The project index (a settled run's, from the cache's results, made when first asked)."""
        if callable(self.made_index):
            self.made_index = self.made_index()
        return self.made_index

    @index.setter
    def index(self, index: ProjectIndex | None) -> None:
        self.made_index = index


def lint_files(
    paths: list[str],
    settings: Settings,
    cache: Cache | None,
    workers: int | None = None,
    progress: bool = False,
    extra: Iterable[LintResult] = (),
) -> RunResult:
    """Lint `paths` (and add `extra`, results linted already: standard input)."""
    with older_collections_off():
        return _lint_files(paths, settings, cache, workers, progress, extra)


def _lint_files(
    paths: list[str],
    settings: Settings,
    cache: Cache | None,
    workers: int | None,
    progress: bool,
    extra: Iterable[LintResult],
) -> RunResult:
    forget_packages()
    run = RunResult(files=len(paths))
    extra = list(extra)
    results: dict[str, LintResult] = {}
    keys: dict[str, str] = {}  # path -> its content key, for the cache of the second phase
    todo: list[tuple[str, list[str]]] = []
    files = [(path, settings.codes_for(path)) for path in paths]
    if cache is not None:
        for path, codes in files:
            if os.path.isfile(path):  # not a FIFO: reading one waits forever
                try:
                    with open(path, "rb") as handle:
                        keys[path] = content_key(handle.read(), codes)
                except OSError:
                    pass
        if not extra and len(keys) == len(paths):
            settled = _settled_run(paths, settings, cache, keys)
            if settled is not None:
                return settled
    for path, codes in files:
        hit = cache.get(path, keys[path]) if cache is not None and path in keys else None
        if hit is not None:
            findings, errors, summary = hit
            results[path] = LintResult(path, findings, errors, summary=summary)
            continue
        todo.append((path, codes))
    engine = None
    jobs = workers or default_jobs()
    shipments = project_view.Shipments()  # the summaries so far, for each worker's look-ups
    for path, result in results.items():
        shipments.publish(path, result.summary)
    if todo:
        import memlint.engine as engine  # LibCST and the rules, only for a miss; before forking, so workers share it

        # for the second phase, in each worker: the trees of files that ask about the project's modules
        engine.keep_trees(KEPT_SOURCE_BYTES // jobs, _packages([path for path, _ in todo], settings.root))
    edges, names = project_view.import_edges([path for path, _ in todo], settings.root) if todo else ({}, set())
    # before the workers start: they inherit it
    project_view.start(paths, settings.root, {other for imported in edges.values() for other in imported}, names)

    try:
        with Workers(jobs) as pool, _progress(len(todo), progress) as bar:
            todo.sort(key=lambda job: -_size(job[0]))  # the biggest first, as far as the imports allow
            codes_of = dict(todo)
            jobs_ = [(path, codes_of[path], None) for path in project_view.callees_first(list(codes_of), edges)]
            follows = lambda job: edges.get(job[0], ())  # noqa: E731 - its callees' files
            for result in parallel_map(_lint_job, jobs_, pool.jobs, pool=pool, home=_path, attach=shipments.attach, follows=follows):
                results[result.path] = result
                shipments.publish(result.path, result.summary)
                bar.update(1)
                if cache is not None and result.cache_key is not None:
                    keys[result.path] = result.cache_key
                    cache.put(result.path, result.cache_key, result.findings, result.errors, result.summary)
            index = _with_project_facts(results, settings, cache, keys, pool, shipments, bool(todo))
    finally:  # interrupted too: what finished stays cached
        if engine is not None:
            engine.keep_trees(0)  # (the trees of a run without workers)
        project_view.stop()
        if cache is not None:
            cache.save()
    for result in extra:
        results[result.path] = result
        run.files += 1
    for path in [*paths, *(r.path for r in extra)]:
        result = results[path]
        run.findings.extend(result.findings)
        run.errors.extend(result.errors)
    if extra:
        index = _index(results, settings)
    run.findings += [
        f
        for f in index.late_alloc_settings()
        + index.kept_by_project_callees()
        + index.eval_calls_of_project_models()
        + index.hooks_registered_per_step()
        if f.code in settings.codes_for(f.filename)
        and f.code not in index.summaries.get(f.filename, {}).get("file_noqa", ())  # `# memlint: noqa: CODE`
    ]
    adjusted = index.adjust(run.findings)
    _report(run, adjusted, settings)
    run.index = index
    if cache is not None and not extra and cache.settled(run_key(keys, settings.root)) and len(keys) == len(paths):
        if not any(e.internal or e.note for e in run.errors):  # (the cache keeps no such file's results)
            cache.keep_output(
                run_key(keys, settings.root),
                {
                    "findings": [{**f.to_json(), "extra": f.extra} for f in adjusted],
                    "errors": [{"filename": e.filename, "message": e.message} for e in run.errors],
                },
            )
            cache.save()
    return run


def _report(run: RunResult, adjusted: list[Finding], settings: Settings) -> None:
    """The run's findings: those the project index adjusted, less those resting on guesses (without `--preview`)."""
    run.findings = sorted(adjusted if settings.preview else [f for f in adjusted if not hidden(f)], key=Finding.sort_key)
    run.hidden = len(adjusted) - len(run.findings)


def _settled_run(paths: list[str], settings: Settings, cache: Cache, keys: dict[str, str]) -> RunResult | None:
    """What the run that settled over the same files (`keys`: each one's content key), all unchanged
    since, reported, as the cache kept it: their results and the project's joined again would give
    it again (on the bench corpus, reading them was a third of such a run's CPU). None where the
    cache keeps none. The project index is made from the cache's results if asked for (`--fix`)."""
    output = cache.settled_output(run_key(keys, settings.root))
    try:
        adjusted = [replace(Finding.from_json(f), extra=f.get("extra", {})) for f in output["findings"]]  # type: ignore[index]
        errors = [FileError(e["filename"], e["message"]) for e in output["errors"]]  # type: ignore[index]
    except Exception:  # noqa: BLE001 - none kept, or damaged by hand: the results of each file answer
        return None
    run = RunResult(errors=errors, files=len(paths))
    _report(run, adjusted, settings)

    def index() -> ProjectIndex:
        results = {}
        for path in paths:
            hit = cache.get(path, keys[path])
            results[path] = LintResult(path, summary=hit[2] if hit is not None else {})
        return _index(results, settings)

    run.index = index
    return run


PROJECT_ROUNDS = 3  # facts reach through chains of files: a caller of a caller of a changed definition


def _with_project_facts(
    results: dict[str, LintResult],
    settings: Settings,
    cache: Cache | None,
    keys: dict[str, str],
    pool: "Workers",
    shipments: "project_view.Shipments",
    analysed: bool,
) -> ProjectIndex:
    """The second phase: every file whose analysis was given answers about the project's
    definitions that the whole project's summaries no longer give (it asked before the defining
    file was analysed, or that file's facts changed since) is analysed again, its results replacing
    those of the first phase. Its summary may change what it says to its own callers: rounds go
    on while some file's answers change, at most `PROJECT_ROUNDS`. A file's results are cached by
    its content; its answers, kept in its summary, say whether they still hold. `analysed`: the
    first phase analysed some file (else every file was a cache hit). `keys`: each file's content key."""
    located = Located()  # every round indexes the same files: where their names are defined, once
    index = _index(results, settings, located)
    cached = cache is not None and keys.keys() == results.keys()  # the cache keeps every file's results
    if cached and not analysed and cache.settled(run_key(keys, settings.root)):
        # the results of the run that ended with every file's answers holding, unchanged since: they
        # still hold (on the bench corpus, checking them was a sixth of a warm run's CPU)
        return index
    # files that no rule needed to read (no needle of any rule in them) but whose definitions other
    # files call or derive from: their summaries first (they keep the results of the first phase: no rule applies)
    unread = sorted(
        {
            where[0]
            for path, result in results.items()
            for name in (*(name for name, _ in (result.summary or {}).get("calls", ())), *(result.summary or {}).get("bases", ()))
            if (where := index.locate(path, name)) is not None and where[0] in results and not results[where[0]].summary
        }
    )
    todo = [(p, settings.codes_for(p), index.callers_facts(p)) for p in unread]
    rounds = 0
    while True:
        if todo:
            for result in parallel_map(_lint_job, todo, pool.jobs, pool=pool, home=_path, attach=shipments.attach):
                _keep_questions(result, results[result.path])
                results[result.path] = result
                if cache is not None and result.cache_key is not None:
                    cache.put(result.path, result.cache_key, result.findings, result.errors, result.summary)
            for path, _, _ in todo:  # (after the round: each of its analyses saw the same summaries)
                shipments.publish(path, results[path].summary)
            index = _index(results, settings, located)
        if rounds == PROJECT_ROUNDS:
            break
        briefs: dict = {}  # (the index's facts in brief, once each)
        todo = [
            (path, settings.codes_for(path), index.callers_facts(path))
            for path, result in results.items()
            if result.summary and not _same_answers(result, index, path, briefs)
        ]
        if not todo:
            break
        rounds += 1
    if cache is not None:
        cache.settle(run_key(keys, settings.root) if cached and not todo else None)
    return index


def _index(results: dict[str, LintResult], settings: Settings, located: Located | None = None) -> ProjectIndex:
    """The project index of `results`; every file is in it, so that a definition in a file without
    a summary (no rule needed to read it) is still found. `located`: the answers of an earlier index."""
    return ProjectIndex({p: r.summary or {} for p, r in results.items()}, settings.root, located)


def _same_answers(result: LintResult, index: ProjectIndex, path: str, briefs: dict) -> bool:
    """Would the project's summaries (`index`) answer every look-up of the analysis that made `result`
    as it was answered? Then that analysis would take the same path to the same results."""
    answers = (result.summary or {}).get(ANSWERS)
    return answers is not None and same_answers(answers, _Facts(index, path), briefs)


class _Facts:
    """The facts `index` gives the questions of `path`'s analysis, as `same_answers` reads them."""

    def __init__(self, index: ProjectIndex, path: str) -> None:
        self.index, self.path = index, path

    def get(self, question: str) -> dict | None:
        return self.index.fact(self.path, question)


def _keep_questions(result: LintResult, before: LintResult) -> None:
    """A file's questions to other files only grow from round to round (an answer can lead its
    analysis elsewhere): rounds then end, at a fixed point or at the bound."""
    for part in QUESTION_PARTS:
        if result.summary and before.summary and part in before.summary:
            result.summary[part] = sorted({*result.summary.get(part, ()), *before.summary[part]})


def parallel_map(
    func: Callable[[T], R],
    todo: list[T],
    jobs: int,
    initializer: Callable[..., None] | None = None,
    initargs: tuple = (),
    pool: "Workers | None" = None,
    home: Callable[[T], str] | None = None,
    attach: Callable[[int, T], T] | None = None,
    follows: Callable[[T], Collection[str]] | None = None,
) -> Iterator[R]:
    """`func` over `todo`, in worker processes when there is enough to do; results as they finish.
    `todo` comes biggest first: handed out one at a time, the processes finish together. `pool`:
    the workers of a run that maps several times (they start once); else its own, for this map.
    `home`, `attach`, `follows`: see `Workers.map`."""
    if pool is not None:
        yield from pool.map(func, todo, home, attach, follows)
        return
    with Workers(jobs, initializer, initargs) as own:
        yield from own.map(func, todo)


@contextmanager
def older_collections_off() -> Iterator[None]:
    """The collector's passes over its older generations off, as in a worker (`_worker_init`), until
    the run or map ends (a language server's process lives on). What a run keeps only grows until it
    ends (the results; in one process, `--jobs 1`, the light trees of `engine.KeptTrees` too), and
    those passes freed nothing of it: with `--jobs 1` on the bench corpus, one after the first phase
    scanned every kept tree (0.2 to 0.5 s of CPU)."""
    thresholds = gc.get_threshold()
    gc.set_threshold(thresholds[0], OLDER_COLLECTIONS_OFF, OLDER_COLLECTIONS_OFF)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)


class Workers:
    """Worker processes that stay for every map of a run (a lint's two phases start them once), each
    handed its next job by the parent as it returns a result. Not `multiprocessing.Pool`: its three
    threads cost the parent 0.3 s of CPU per 500 files on a loaded machine, as much as linting 30
    of them; here the parent sleeps in `wait` between results."""

    def __init__(self, jobs: int, initializer: Callable[..., None] | None = None, initargs: tuple = ()) -> None:
        self.jobs = jobs
        self.initializer = initializer
        self.initargs = initargs
        self.processes: list = []
        self.connections: list = []
        self.initialized = False  # the initializer has run in this process (small maps run here)
        self.homes: dict[str, int] = {}  # a job's key -> the worker that ran it

    def __enter__(self) -> "Workers":
        return self

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        self.close(stop=kind is not None)

    def map(
        self,
        func: Callable[[T], R],
        todo: list[T],
        home: Callable[[T], str] | None = None,
        attach: Callable[[int, T], T] | None = None,
        follows: Callable[[T], Collection[str]] | None = None,
    ) -> Iterator[R]:
        """`func` over `todo`, results as they finish. `home`: a job's key (its file); a job whose
        key an earlier job of this run had goes to the same worker, unless another has nothing left.
        `attach`: the job as handed to a worker (its number; -1: this process), given what the
        results so far tell it. `follows`: the keys of the jobs whose results a job reads (with
        `home`): while one of those is still running on another worker, a later job goes first."""
        if not self.processes and (len(todo) < PARALLEL_THRESHOLD or self.jobs <= 1):
            if self.initializer is not None and not self.initialized:
                self.initializer(*self.initargs)
                self.initialized = True
            with older_collections_off():  # as in a worker (`_worker_init`)
                for job in todo:
                    yield func(job if attach is None else attach(-1, job))
            return
        from multiprocessing.connection import wait  # here: a warm run (every file a cache hit) starts no worker

        self._start()
        pending = _Queues(len(self.connections), todo, home, self.homes, follows)
        busy: dict[Any, list] = {}  # a worker's connection -> the jobs of its batch
        try:
            for worker in range(len(self.connections)):
                self._hand(worker, func, pending, busy, attach)
            while busy:
                for connection in wait(list(busy)):
                    try:
                        replies = connection.recv()
                    except (EOFError, OSError):
                        process = self.processes[self.connections.index(connection)]
                        process.join(1)
                        raise RuntimeError(
                            f"a worker process ended unexpectedly (exit code {process.exitcode}; out of memory?)"
                        ) from None
                    pending.finish(busy.pop(connection))
                    self._hand(self.connections.index(connection), func, pending, busy, attach)  # it works while we go on
                    for done, value in replies:
                        if not done:
                            raise value
                        yield value
        finally:
            if busy:  # abandoned midway (an error, Ctrl-C): their results would answer the next map
                self.close(stop=True)

    def _hand(self, worker: int, func: Callable, pending: "_Queues", busy: dict, attach: Callable | None) -> None:
        """Send `worker` its next batch of jobs (`_Queues.batch`), while the others run theirs."""
        running = [job for jobs in busy.values() for job in jobs]
        batch: list = []
        for _ in range(pending.batch(len(self.connections))):
            job = pending.next_for(worker, running, batch)
            if job is _DONE:
                break
            batch.append(job)
        if batch:
            self.connections[worker].send((func, [job if attach is None else attach(worker, job) for job in batch]))
            busy[self.connections[worker]] = batch

    def _start(self) -> None:
        if self.processes:
            return
        import multiprocessing

        # The parent's objects (LibCST, the rules) out of the workers' collections: scanning them
        # would copy their pages into every worker (the `gc.freeze` documentation's advice for fork)
        gc.freeze()
        context = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")
        for _ in range(self.jobs):
            mine, theirs = context.Pipe()
            process = context.Process(
                target=_serve, args=(theirs, os.getpid(), self.initializer, self.initargs), daemon=True
            )
            process.start()
            theirs.close()
            self.processes.append(process)
            self.connections.append(mine)
        gc.unfreeze()  # here they may be collected again (a language server lives on)

    def close(self, stop: bool = False) -> None:
        """End the workers: after their jobs, or at once (`stop`: Ctrl-C, SIGTERM, an error)."""
        for process, connection in zip(self.processes, self.connections):
            if stop:
                process.terminate()
            else:
                try:
                    connection.send(None)
                except OSError:
                    process.terminate()
        for process, connection in zip(self.processes, self.connections):
            process.join()
            connection.close()
        self.processes, self.connections = [], []


_DONE = object()


class _Queues:
    """A map's jobs by worker: those whose key a worker had before wait for it, in `todo`'s order;
    the others go to whichever asks first; a worker with none left takes another's last."""

    def __init__(
        self, workers: int, todo: list, home: Callable | None, homes: dict[str, int], follows: Callable | None = None
    ) -> None:
        self.own: list[deque] = [deque() for _ in range(workers)]
        self.free: deque = deque()
        self.home, self.homes, self.follows = home, homes, follows
        self.left = len(todo)
        # the keys of the jobs whose results have not come back (where jobs read others' results)
        self.unfinished = {home(job) for job in todo} if follows is not None and home is not None else set()
        for job in todo:
            worker = homes.get(home(job)) if home is not None else None
            (self.free if worker is None else self.own[worker]).append(job)

    def batch(self, workers: int) -> int:
        """How many jobs to hand a worker at once: up to `_BATCH`, fewer as the jobs run out, so that
        the workers still finish together. Each message wakes a sleeping process, which can cost more
        CPU than a small file's analysis: on a loaded 2-CPU virtual machine, the workers' CPU outside
        their jobs on the bench corpus went from 0.9 s (a message per file, 0.02 s of it pickling) to 0.25 s."""
        return max(1, min(_BATCH, self.left // (workers * _BATCHES_LEFT)))

    def next_for(self, worker: int, running: Iterable = (), batch: list | None = None) -> object:
        """The next job for `worker`, while the jobs `running` run on the others. `batch`: the jobs
        handed to it with this one, before it: a further job joins them only where every result it
        reads (`follows`) has come back or comes before it in the batch, so that it is analysed
        knowing what it would know alone."""
        if batch and self.unfinished:
            job = self._known(batch)
            if job is _DONE:
                return job
        elif self.own[worker]:
            job = self.own[worker].popleft()
        elif self.free:
            job = self._ready(running)
        else:
            longest = max(self.own, key=len)
            if not longest:
                return _DONE
            job = longest.pop()
        if self.home is not None:
            self.homes[self.home(job)] = worker
        self.left -= 1
        return job

    def finish(self, jobs: list) -> None:
        """The results of `jobs` have come back."""
        if self.unfinished:
            self.unfinished.difference_update(self.home(job) for job in jobs)

    def _known(self, batch: list) -> object:
        """The first free job all of whose results read have come back, or are those of `batch`."""
        waiting = self.unfinished.difference(self.home(job) for job in batch)
        for index, job in enumerate(islice(self.free, _LOOKAHEAD)):
            if waiting.isdisjoint(self.follows(job)):
                del self.free[index]
                return job
        return _DONE

    def _ready(self, running: Iterable) -> object:
        """The first free job that reads the result of no running job (a file whose callees another
        worker is analysing would ask about them before their facts are known, and be analysed again:
        on the bench corpus, 2 workers analysed 62 to 67 files twice, 38 to 42 with it, 34 in one process); the
        first of all where every one of the next few waits."""
        if self.follows is not None and self.home is not None:
            keys = {self.home(job) for job in running}
            for index, job in enumerate(islice(self.free, _LOOKAHEAD)):
                if keys.isdisjoint(self.follows(job)):
                    if index:
                        del self.free[index]
                        return job
                    break
        return self.free.popleft()


def _serve(connection: Any, parent: int, initializer: Callable[..., None] | None, initargs: tuple) -> None:
    """A worker's life: jobs in, results out, until the parent says stop (None) or goes away."""
    _worker_init(parent, initializer, initargs)
    while True:
        try:
            task = connection.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        func, jobs = task
        replies = []
        for job in jobs:
            try:
                replies.append((True, func(job)))
            except Exception as exc:  # noqa: BLE001 - the parent raises it, as Pool did
                replies.append((False, exc))
                break
        try:
            connection.send(replies)
        except Exception as exc:  # noqa: BLE001 - a result or error that does not pickle
            connection.send([(False, RuntimeError(f"a worker's result could not be sent back: {exc}"))])


def _worker_init(parent: int, initializer: Callable[..., None] | None, initargs: tuple) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C for the whole run
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG: end with the parent, however it ends
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # the parent died before the line above took effect
        os._exit(1)
    # A worker's heap only grows during the run (the light trees it keeps, engine.KeptTrees), and the
    # engine pauses the collector while it analyses a file: that file's cycles are all young when it
    # resumes, and the youngest generation's collection frees them. The older generations' collections
    # only scanned the kept trees again and again (on the bench corpus, 0.25 s of CPU per worker; a
    # run in one process, `--jobs 1`, took 1.27 times the bare parse's CPU with them, 1.09 to 1.17 without).
    gc.set_threshold(gc.get_threshold()[0], OLDER_COLLECTIONS_OFF, OLDER_COLLECTIONS_OFF)
    if initializer is not None:
        initializer(*initargs)


class _NoBar:
    def update(self, steps: int) -> None:
        pass


def _progress(total: int, wanted: bool):
    """click's progress bar on stderr for a long run in a terminal; nothing otherwise."""
    import contextlib

    if not wanted or total < PROGRESS_MIN_FILES:
        return contextlib.nullcontext(_NoBar())
    import click

    return click.progressbar(length=total, label="Linting", file=sys.stderr, show_pos=True)


def _lint_job(job: tuple[str, list[str], dict | None, dict]) -> LintResult:
    """A file's lint in a run's first phase (`callers` None: alone, but for what the files analysed
    so far define) or second (`callers`: how other files use its definitions; its summary is
    wanted whatever the rules need). `parts`: the summaries this process has not seen yet."""
    from memlint.engine import lint_path

    path, codes, callers, parts = job
    project_view.update(parts)
    if callers is None:
        result = lint_path(path, codes)
    else:
        from memlint.analysis.flow.project_facts import ProjectFacts

        if callers:
            project_view.called_from_elsewhere(path)
        result = lint_path(path, codes, ProjectFacts(lookup=project_view.lookup_for(path, callers)))
    project_view.update(project_view.answering({path: result.summary}))  # its next files may ask about it
    return result


def _packages(paths: list[str], root: Path) -> set[str]:
    """The first parts of the names the project's modules are imported by (`ProjectIndex.modules`)."""
    return {
        name.partition(".")[0] for path in paths for name in (module_name(path, root), package_module_name(path)) if name
    }


def _path(job: tuple) -> str:
    return job[0]


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0
