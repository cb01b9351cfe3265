"""Speed benchmark: memlint cold and warm against a bare LibCST parse and peers.

    python benchmarks/bench.py                 # fetch the corpus, run, print the table
    python benchmarks/bench.py --runs 5 --corpus /tmp/memlint-corpus

The corpus is the installed sources of lightning 2.6.6 and torchtune 0.6.1
(501 files, 113k lines), fetched with `pip download --no-deps` into a scratch
directory. Peers (TorchFix, Fixit, ruff) are timed when their commands are
found: pass `--torchfix`, `--fixit`, `--ruff` with the path of each tool's
executable (ideally each in its own virtual environment), or put them on PATH.
Times are medians of `--runs` wall-clock runs.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

PACKAGES = ["lightning==2.6.6", "torchtune==0.6.1"]


def fetch(corpus: Path) -> Path:
    src = corpus / "src"
    if src.is_dir() and any(src.rglob("*.py")):
        return src
    wheels = corpus / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:", "-d", str(wheels), *PACKAGES],
        check=True,
    )
    for wheel in sorted(wheels.glob("*.whl")):
        with zipfile.ZipFile(wheel) as archive:
            archive.extractall(src)
    return src


def timed(command: list[str], runs: int, cwd: Path, setup=None) -> float:
    samples = []
    for _ in range(runs):
        if setup:
            setup()
        start = time.perf_counter()
        subprocess.run(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


BARE_PARSE = """
import pathlib, sys, libcst
for path in sorted(pathlib.Path(sys.argv[1]).rglob('*.py')):
    try:
        libcst.parse_module(path.read_bytes())
    except Exception:
        pass
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=Path(tempfile.gettempdir()) / "memlint-bench-corpus")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--peer-runs", type=int, default=1, help="runs of each peer (TorchFix takes minutes)")
    parser.add_argument("--torchfix", default=shutil.which("torchfix"))
    parser.add_argument("--fixit", default=shutil.which("fixit"))
    parser.add_argument("--ruff", default=shutil.which("ruff"))
    args = parser.parse_args()

    src = fetch(args.corpus)
    files = sorted(src.rglob("*.py"))
    lines = sum(p.read_bytes().count(b"\n") for p in files)
    size = sum(p.stat().st_size for p in files)
    print(f"corpus: {len(files)} files, {lines / 1000:.0f}k lines, {size / 1e6:.1f} MB ({', '.join(PACKAGES)})")

    memlint = [sys.executable, "-m", "memlint"]
    cache = args.corpus / "cache"
    results: dict[str, float] = {}
    results["bare libcst.parse_module (1 process)"] = timed([sys.executable, "-c", BARE_PARSE, str(src)], args.runs, args.corpus)
    results["memlint cold (--no-cache)"] = timed([*memlint, "--no-cache", "-q", str(src)], args.runs, args.corpus)
    subprocess.run([*memlint, "--cache-dir", str(cache), "-q", str(src)], cwd=args.corpus, stdout=subprocess.DEVNULL)
    results["memlint warm (cache hit)"] = timed([*memlint, "--cache-dir", str(cache), "-q", str(src)], args.runs, args.corpus)
    if args.ruff:
        results["ruff --select ALL"] = timed([args.ruff, "check", "--no-cache", "--select", "ALL", "--exit-zero", str(src)], args.peer_runs, args.corpus)
    if args.fixit:
        results["fixit lint"] = timed([args.fixit, "lint", str(src)], args.peer_runs, args.corpus)
    if args.torchfix:
        results["torchfix --select ALL"] = timed([args.torchfix, "--select", "ALL", str(src)], args.peer_runs, args.corpus)

    bare = results["bare libcst.parse_module (1 process)"]
    print("\n| tool | median wall (s) | vs bare parse |\n|---|---|---|")
    for name, seconds in results.items():
        print(f"| {name} | {seconds:.2f} | {seconds / bare:.2f}x |")


if __name__ == "__main__":
    main()
