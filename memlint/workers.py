"""Lint many files: cache look-ups, then the rest in parallel processes, in a stable order."""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from memlint.cache import Cache, content_key
from memlint.config import Settings
from memlint.models import FileError, Finding, LintResult
from memlint.project_index import ProjectIndex

PARALLEL_THRESHOLD = 16  # below this, starting worker processes costs more than it saves


@dataclass
class RunResult:
    findings: list[Finding] = field(default_factory=list)
    errors: list[FileError] = field(default_factory=list)
    files: int = 0
    index: ProjectIndex | None = None  # what --fix needs to fix only what lint reports


def lint_files(paths: list[str], settings: Settings, cache: Cache | None, workers: int | None = None) -> RunResult:
    run = RunResult(files=len(paths))
    results: dict[str, LintResult] = {}
    todo: list[tuple[str, list[str]]] = []
    for path in paths:
        codes = settings.codes_for(path)
        if cache is not None:
            try:
                with open(path, "rb") as handle:
                    key = content_key(handle.read(), codes)
            except OSError:
                key = None
            hit = cache.get(path, key) if key else None
            if hit is not None:
                findings, errors, summary = hit
                results[path] = LintResult(path, findings, errors, summary=summary)
                continue
        todo.append((path, codes))
    if todo:
        import memlint.engine  # noqa: F401 - LibCST and the rules, only for a miss; before forking, so workers share it

    workers = workers or max(1, min(os.cpu_count() or 1, 8))
    if len(todo) >= PARALLEL_THRESHOLD and workers > 1:
        # Big files first, handed out one at a time, so the processes finish together.
        todo.sort(key=lambda job: -_size(job[0]))
        context = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            outcomes = list(pool.map(_lint_job, todo, chunksize=1))
    else:
        outcomes = [_lint_job(job) for job in todo]
    for result in outcomes:
        results[result.path] = result
        if cache is not None and result.cache_key is not None:
            cache.put(result.path, result.cache_key, result.findings, result.errors, result.summary)
    if cache is not None:
        cache.save()
    for path in paths:
        result = results[path]
        run.findings.extend(result.findings)
        run.errors.extend(result.errors)
    index = ProjectIndex({p: r.summary for p, r in results.items() if r.summary}, settings.root)
    run.findings += [
        f
        for f in index.late_alloc_settings() + index.kept_by_project_callees()
        if f.code in settings.codes_for(f.filename)
    ]
    run.findings = sorted(index.adjust(run.findings), key=Finding.sort_key)
    run.index = index
    return run


def _lint_job(job: tuple[str, list[str]]) -> LintResult:
    from memlint.engine import lint_path

    return lint_path(*job)


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0
