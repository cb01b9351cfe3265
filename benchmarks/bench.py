"""Speed benchmark: memlint cold and warm against a bare LibCST parse and peers.

    python benchmarks/bench.py                 # fetch the corpus, run, print the table
    python benchmarks/bench.py --runs 5 --corpus /tmp/memlint-corpus

The corpus is the installed sources of lightning 2.6.6 and torchtune 0.6.1
(501 files, 113k lines), fetched with `pip download --no-deps` into a scratch
directory. Peers (TorchFix, Fixit, ruff, torch-preflight) are timed when their commands
are found: pass `--torchfix`, `--fixit`, `--ruff`, `--preflight` with the path of each tool's
executable (ideally each in its own virtual environment), or put them on PATH.

Each tool is timed in wall-clock seconds and in CPU seconds (user + sys of the
process and all its children, worker processes included), as the median of
`--runs` runs. The bare parse runs in the same rounds, alternating with memlint,
so that both ratios compare runs made under the same load. Python runs with its
bytecode compiled (one untimed run of each first), as an installed package is.

Findings check: `--save-digest FILE` writes a digest of memlint's findings on
the corpus (every finding, fix edits included, `--select ALL`); `--digest FILE`
compares this run's with it and exits 1 when they differ, so a speed change can
show it changed no finding.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
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


def bytecode_env(corpus: Path) -> dict[str, str]:
    """The environment of every timed run: Python reads and writes compiled bytecode, as an
    installed package has it, in a folder of the corpus (`PYTHONDONTWRITEBYTECODE`, set in some
    shells and containers, would have every run compile memlint's modules again: 0.2 s of CPU)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(corpus.resolve() / "pycache")
    return env


def run_once(command: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[float, float]:
    """(wall, CPU) seconds of one run; CPU is user + sys of the command and everything it started."""
    before = os.times()
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = os.times()
    return wall, (after.children_user - before.children_user) + (after.children_system - before.children_system)


def timed(commands: dict[str, list[str]], runs: int, cwd: Path, warm_up: bool = True) -> dict[str, tuple[float, float]]:
    """Median (wall, CPU) per command, the commands alternating within each round, after one
    untimed run of each (`warm_up`: it compiles their modules' bytecode)."""
    env = bytecode_env(cwd)
    for command in commands.values() if warm_up else ():
        run_once(command, cwd, env)
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, command in commands.items():
            samples[name].append(run_once(command, cwd, env))
    return {
        name: (statistics.median(w for w, _ in runs_), statistics.median(c for _, c in runs_))
        for name, runs_ in samples.items()
    }


def findings_digest(memlint: list[str], src: Path, cwd: Path) -> tuple[str, int]:
    """A digest of every finding memlint reports on `src` (paths relative to it), and their number."""
    done = subprocess.run(
        [*memlint, "--no-cache", "--select", "ALL", "--format", "json", "--exit-zero", str(src)],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
    )
    findings = json.loads(done.stdout or "[]")
    for finding in findings:
        finding["filename"] = os.path.relpath(finding["filename"], src)
    text = json.dumps(findings, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest(), len(findings)


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
    parser.add_argument("--preflight", default=shutil.which("torch-preflight"), help="torch-preflight's executable")
    parser.add_argument("--save-digest", type=Path, help="write the digest of memlint's findings on the corpus here")
    parser.add_argument("--digest", type=Path, help="compare memlint's findings with this saved digest")
    args = parser.parse_args()

    src = fetch(args.corpus)
    files = sorted(src.rglob("*.py"))
    lines = sum(p.read_bytes().count(b"\n") for p in files)
    size = sum(p.stat().st_size for p in files)
    print(f"corpus: {len(files)} files, {lines / 1000:.0f}k lines, {size / 1e6:.1f} MB ({', '.join(PACKAGES)})")

    memlint = [sys.executable, "-m", "memlint"]
    if args.save_digest or args.digest:
        digest, count = findings_digest(memlint, src, args.corpus)
        print(f"findings: {count}, digest {digest[:16]}")
        if args.save_digest:
            args.save_digest.write_text(digest + "\n")
        if args.digest and args.digest.read_text().strip() != digest:
            print(f"FINDINGS CHANGED: the digest differs from {args.digest}")
            sys.exit(1)
    cache = args.corpus / "cache"
    bare = "bare libcst.parse_module (1 process)"
    results = timed(
        {
            bare: [sys.executable, "-c", BARE_PARSE, str(src)],
            "memlint cold (--no-cache)": [*memlint, "--no-cache", "-q", str(src)],
        },
        args.runs,
        args.corpus,
    )
    subprocess.run(
        [*memlint, "--cache-dir", str(cache), "-q", str(src)], cwd=args.corpus, env=bytecode_env(args.corpus), stdout=subprocess.DEVNULL
    )
    results |= timed({"memlint warm (cache hit)": [*memlint, "--cache-dir", str(cache), "-q", str(src)]}, args.runs, args.corpus)
    peers = {}
    if args.ruff:
        peers["ruff --select ALL"] = [args.ruff, "check", "--no-cache", "--select", "ALL", "--exit-zero", str(src)]
    if args.fixit:
        peers["fixit lint"] = [args.fixit, "lint", str(src)]
    if args.torchfix:
        peers["torchfix --select ALL"] = [args.torchfix, "--select", "ALL", str(src)]
    if args.preflight:
        peers["torch-preflight check"] = [args.preflight, "check", "-q", "--fail-on", "error", str(src)]
    if peers:
        results |= timed(peers, args.peer_runs, args.corpus, warm_up=False)  # their own installs, compiled

    bare_wall, bare_cpu = results[bare]
    print(f"\n{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
    print("\n| tool | median wall (s) | wall vs bare parse | median CPU (s) | CPU vs bare parse |\n|---|---|---|---|---|")
    for name, (wall, cpu) in results.items():
        print(f"| {name} | {wall:.2f} | {wall / bare_wall:.2f}x | {cpu:.2f} | {cpu / bare_cpu:.2f}x |")


if __name__ == "__main__":
    main()
