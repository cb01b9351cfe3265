"""What a notebook costs over the same code as a `.py` file.

    python benchmarks/notebook_speed.py             # ~5 MB notebook, 5 runs
    python benchmarks/notebook_speed.py --mb 20 --runs 3

Builds, in a scratch directory, a notebook of about `--mb` megabytes shaped
like a real one: `--cells` code cells taken from memlint's own test cases
(each with a `%%time` or `!nvidia-smi` line), markdown between them, and
outputs (a stream per cell, a base64 PNG every fifth cell) making up most of
the bytes, as in a notebook that was run. The same code cells, magics left
out, go into a `.py` file. Then it times, as the fastest of `--runs` runs of
`memlint lint --no-cache` in a fresh process (other jobs share the machine:
the fastest run is the least disturbed), the notebook, the `.py` file, and
`memlint --fix --diff` on the notebook (the fixed cells spliced back into the
JSON); plus, in process, reading the notebook alone (JSON, join, masking) and
writing a changed program back into it.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CASES = Path(__file__).resolve().parent.parent / "test_cases"


def build(directory: Path, megabytes: float, count: int) -> tuple[Path, Path]:
    """Write bench.ipynb (`count` code cells, outputs up to `megabytes`) and bench.py (the same code)."""
    sources = [p.read_text(encoding="utf-8") for p in sorted(CASES.rglob("*.py")) if not p.name.endswith(".fixed.py")]
    cells, code = [], []
    for index in range(count):
        source = sources[index % len(sources)]
        magic = "%%time\n" if index % 2 == 0 else "!nvidia-smi\n"
        outputs = [{"name": "stdout", "output_type": "stream", "text": [f"step {i}: loss 0.{i:04d}\n" for i in range(40)]}]
        cells.append({"cell_type": "markdown", "id": f"m{index}", "metadata": {}, "source": [f"## Step {index}\n"]})
        cells.append({"cell_type": "code", "execution_count": index + 1, "id": f"c{index}", "metadata": {},
                      "outputs": outputs, "source": (magic + source).splitlines(True)})
        code.append(source)
    document = {"cells": cells, "metadata": {"kernelspec": {"language": "python", "name": "python3"}},
                "nbformat": 4, "nbformat_minor": 5}
    plots = [c for c in cells if c["cell_type"] == "code"][::5]
    room = max(megabytes * 1e6 - len(json.dumps(document, indent=1)), 0)
    png = base64.b64encode(os.urandom(int(room / len(plots) * 3 / 4))).decode()  # incompressible, as PNGs are
    for cell in plots:
        cell["outputs"].append({"data": {"image/png": png, "text/plain": ["<Figure size 640x480 with 1 Axes>"]},
                                "metadata": {}, "output_type": "display_data"})
    notebook, script = directory / "bench.ipynb", directory / "bench.py"
    notebook.write_text(json.dumps(document, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    script.write_text("\n".join(code), encoding="utf-8")
    return notebook, script


def wall(command: list[str], cwd: Path, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, cwd=cwd, capture_output=True, check=False)
        times.append(time.perf_counter() - start)
    return min(times)  # the least disturbed run: other jobs share the machine


def in_process(notebook: Path, runs: int) -> tuple[float, float]:
    from memlint.notebook import read_notebook

    reads, writes = [], []
    for _ in range(runs):
        start = time.perf_counter()
        parsed = read_notebook(str(notebook))
        reads.append(time.perf_counter() - start)
        changed = parsed.text.replace("losses.append(loss)", "losses.append(loss.detach())")
        start = time.perf_counter()
        parsed.with_source(changed)
        writes.append(time.perf_counter() - start)
    return min(reads), min(writes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=5.0, help="notebook size in megabytes")
    parser.add_argument("--cells", type=int, default=60, help="code cells (test cases of memlint, ~30 lines each)")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        directory = Path(scratch)
        notebook, script = build(directory, args.mb, args.cells)
        memlint = [sys.executable, "-m", "memlint", "lint", "--no-cache", "--exit-zero", "--quiet"]
        lines = script.read_text(encoding="utf-8").count("\n") + 1
        print(f"notebook: {notebook.stat().st_size / 1e6:.1f} MB, {args.cells} code cells, {lines} code lines "
              f"({script.stat().st_size / 1e6:.2f} MB of code)")
        read, write = in_process(notebook, args.runs)
        as_py = wall([*memlint, script.name], directory, args.runs)
        as_ipynb = wall([*memlint, notebook.name], directory, args.runs)
        fix = wall([*memlint, "--fix", "--diff", notebook.name], directory, args.runs)
        print(f"read the notebook (JSON, join, mask):  {read * 1000:7.0f} ms")
        print(f"write a changed program back:           {write * 1000:7.0f} ms")
        print(f"memlint lint bench.py:                  {as_py:7.2f} s")
        print(f"memlint lint bench.ipynb:               {as_ipynb:7.2f} s  ({as_ipynb / as_py:.2f}x the .py)")
        print(f"memlint --diff bench.ipynb:             {fix:7.2f} s")


if __name__ == "__main__":
    main()
