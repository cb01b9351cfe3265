"""Lint the installed sources of real training libraries; count findings per rule.

    python benchmarks/corpus_findings.py [--corpus DIR] [--findings FILE]

Fetches pinned wheels with `pip download --no-deps` into a scratch directory,
unpacks them, lints each package cold (`--no-cache`, all rules) and prints
files, lines, seconds, internal errors and findings per rule as a Markdown
table, the kind docs/accuracy.md records. `--findings FILE` also writes every
finding (path, line, code, message), one per line, for reading them all.
"""

from __future__ import annotations

import argparse
import collections
import json
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

PACKAGES = {
    "transformers": "transformers==5.23.0",
    "lightning": "lightning==2.6.6",
    "torchtune": "torchtune==0.6.1",
    "peft": "peft==0.21.2",
    "accelerate": "accelerate==1.15.0",
    # libraries whose training code users copy: trainers, loops, callbacks
    "trl": "trl==1.16.0",
    "diffusers": "diffusers==0.42.1",
    "timm": "timm==1.0.31",
    "pytorch-ignite": "pytorch-ignite==0.5.5",
    "skorch": "skorch==1.4.0",
    "ultralytics": "ultralytics==8.4.190",
}


def unpack(corpus: Path, name: str, requirement: str) -> Path:
    target = corpus / name
    if target.is_dir():
        return target
    wheels = corpus / "wheels" / name
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:", "-d", str(wheels), requirement],
        check=True,
    )
    for wheel in wheels.glob("*.whl"):
        with zipfile.ZipFile(wheel) as archive:
            archive.extractall(target)
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=Path(tempfile.gettempdir()) / "memlint-corpus")
    parser.add_argument("--findings", type=Path, help="write every finding to this file")
    args = parser.parse_args()
    listing = []
    rows = []
    codes: set[str] = set()
    for name, requirement in PACKAGES.items():
        root = unpack(args.corpus, name, requirement)
        files = [p for p in root.rglob("*.py")]
        lines = sum(p.read_bytes().count(b"\n") for p in files)
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "memlint", "--no-cache", "--format", "json", "--select", "ALL", str(root)],
            capture_output=True,
            text=True,
        )
        seconds = time.perf_counter() - start
        findings = json.loads(done.stdout or "[]")
        per_rule = collections.Counter(f["code"] for f in findings)
        listing += [f"{f['filename']}:{f['location']['row']}: {f['code']} {f['message']}" for f in findings]
        codes |= set(per_rule)
        internal = sum("internal error" in line for line in done.stderr.splitlines())
        tracebacks = done.stderr.count("Traceback")
        rows.append((requirement, len(files), lines, seconds, internal + tracebacks, per_rule))
    if args.findings:
        args.findings.write_text("\n".join(sorted(listing)) + "\n", encoding="utf-8")
    ordered = sorted(codes)
    print("| package | files | lines | seconds | internal errors | " + " | ".join(ordered) + " |")
    print("|---|---|---|---|---|" + "---|" * len(ordered))
    for requirement, files, lines, seconds, errors, per_rule in rows:
        counts = " | ".join(str(per_rule.get(c, 0)) for c in ordered)
        print(f"| {requirement} | {files} | {lines} | {seconds:.1f} | {errors} | {counts} |")


if __name__ == "__main__":
    main()
