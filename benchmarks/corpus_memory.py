"""Memory and time of one run over the 11-package corpus, cold then warm.

    python benchmarks/corpus_memory.py                  # the packages of corpus_findings.py, all in one run
    python benchmarks/corpus_memory.py --jobs 1

Lints every package of `benchmarks/corpus_findings.py` (fetched and unpacked
into `--corpus` as that script does) in one `memlint` command, first with an
empty cache (cold), then again (warm: every file a cache hit). While each runs,
the process tree (memlint and its worker processes) is sampled every 50 ms:

* peak PSS of the tree: the memory the run takes from the machine (pages that
  the forked workers share with the parent counted once, shared out);
* peak RSS of the largest single process: what GNU `time` reports as maximum
  resident set size.

CPU is user + sys of the command and its workers; wall is the command's.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _children(pid: int) -> list[int]:
    """`pid` and every process below it."""
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents.setdefault(int(fields[1]), []).append(int(entry))
    tree, todo = [], [pid]
    while todo:
        current = todo.pop()
        tree.append(current)
        todo.extend(parents.get(current, ()))
    return tree


def _memory(pid: int) -> tuple[int, int]:
    """(PSS, RSS) of one process in bytes; zeros for one that has ended."""
    pss = rss = 0
    try:
        with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("Pss:"):
                    pss = int(line.split()[1]) * 1024
                elif line.startswith("Rss:"):
                    rss = int(line.split()[1]) * 1024
    except OSError:
        pass
    return pss, rss


def run_sampled(command: list[str], cwd: Path) -> dict:
    """Wall and CPU seconds of `command`, and the peaks of its process tree's memory."""
    peaks = {"pss": 0, "rss": 0}
    before = os.times()
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL)
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            sizes = [_memory(p) for p in _children(process.pid)]
            peaks["pss"] = max(peaks["pss"], sum(p for p, _ in sizes))
            peaks["rss"] = max(peaks["rss"], max((r for _, r in sizes), default=0))
            done.wait(0.05)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    code = process.wait()
    done.set()
    sampler.join()
    wall = time.perf_counter() - start
    after = os.times()
    if code not in (0, 1):
        raise SystemExit(f"memlint exited {code}")
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return {"wall": wall, "cpu": cpu, "peak_pss_mb": peaks["pss"] / 2**20, "peak_rss_mb": peaks["rss"] / 2**20}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=Path(tempfile.gettempdir()) / "memlint-corpus")
    parser.add_argument("--jobs", type=int, default=None, help="memlint's --jobs (default: memlint's own)")
    args = parser.parse_args()
    sys.path.insert(0, str(HERE))
    from corpus_findings import PACKAGES, unpack

    roots = [unpack(args.corpus, name, requirement) for name, requirement in PACKAGES.items()]
    files = [p for root in roots for p in root.rglob("*.py")]
    lines = sum(p.read_bytes().count(b"\n") for p in files)
    print(f"corpus: {len(PACKAGES)} packages, {len(files):,} files, {lines:,} lines ({', '.join(PACKAGES.values())})")
    with tempfile.TemporaryDirectory(prefix="memlint-memory-") as cache:
        command = [sys.executable, "-m", "memlint", "--cache-dir", cache, "--exit-zero", "-q"]
        if args.jobs:
            command += ["--jobs", str(args.jobs)]
        command += [str(root) for root in roots]
        results = {"cold": run_sampled(command, args.corpus), "warm": run_sampled(command, args.corpus)}
    print(f"\n{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}\n")
    print("| run | wall (s) | CPU (s) | peak PSS of the run (MB) | peak RSS of one process (MB) |\n|---|---|---|---|---|")
    for name, r in results.items():
        print(f"| {name} | {r['wall']:.2f} | {r['cpu']:.2f} | {r['peak_pss_mb']:.0f} | {r['peak_rss_mb']:.0f} |")


if __name__ == "__main__":
    main()
