"""The worker processes of a run (memlint/workers.py): started once for all of its maps, every
job's result back, a job's error raised in the parent, a worker that dies named in one line."""

from __future__ import annotations

import gc
import os

import pytest

from memlint.workers import PARALLEL_THRESHOLD, Workers, _Queues, parallel_map


def _pid(job: int) -> tuple[int, int]:
    return job, os.getpid()


def _fails(job: int) -> int:
    if job == 3:
        raise ValueError("job 3 fails")
    return job


def _dies(job: int) -> int:
    if job == 3:
        os._exit(9)  # killed mid-job, as the kernel's out-of-memory killer would
    return job


JOBS = list(range(PARALLEL_THRESHOLD + 4))


def test_the_workers_start_once_for_every_map_of_a_run() -> None:
    with Workers(2) as pool:
        first = list(parallel_map(_pid, JOBS, pool.jobs, pool=pool))
        second = list(parallel_map(_pid, JOBS, pool.jobs, pool=pool))
    assert sorted(job for job, _ in first) == JOBS == sorted(job for job, _ in second)
    pids = {pid for _, pid in first}
    assert len(pids) == 2 and os.getpid() not in pids
    assert {pid for _, pid in second} <= pids
    assert not pool.processes  # ended with the run


def test_a_small_map_runs_in_this_process() -> None:
    assert {pid for _, pid in parallel_map(_pid, JOBS[: PARALLEL_THRESHOLD - 1], 2)} == {os.getpid()}


def _thresholds(job: int) -> tuple[int, int, int]:
    return gc.get_threshold()


def test_a_map_in_this_process_skips_the_older_collections_for_its_duration_only() -> None:
    """Its jobs' kept trees would be scanned again by every older collection; a language server's
    process, which lives on, gets its collector back as it was."""
    before = gc.get_threshold()
    seen = list(parallel_map(_thresholds, JOBS[:3], 2))
    assert all(young == before[0] and older >= 1 << 30 for young, older, _ in seen)
    assert gc.get_threshold() == before


def test_a_jobs_error_is_raised_in_the_parent_and_the_workers_end() -> None:
    with pytest.raises(ValueError, match="job 3 fails"), Workers(2) as pool:
        list(parallel_map(_fails, JOBS, pool.jobs, pool=pool))
    assert not pool.processes


def test_a_worker_that_dies_is_an_error_not_a_hang() -> None:
    with pytest.raises(RuntimeError, match="worker process ended unexpectedly"):
        list(parallel_map(_dies, JOBS, 2))


def test_a_job_waits_while_a_job_whose_result_it_reads_runs_on_another_worker() -> None:
    """A file whose callee another worker is still analysing would be analysed without its facts,
    and again afterwards: a later job goes first; where every job waits, the first goes anyway."""
    follows = {"a": (), "b": ("a",), "c": ("a",), "d": ()}
    queues = _Queues(2, list(follows), lambda job: job, {}, lambda job: follows[job])
    assert queues.next_for(0) == "a"
    assert queues.next_for(1, running=["a"]) == "d"  # b and c read a's result
    assert queues.next_for(1, running=["a"]) == "b"  # nothing else left: b goes
    assert queues.next_for(0, running=["b"]) == "c"  # a is done
