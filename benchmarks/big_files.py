"""Big-file benchmark: CPU per 1,000 lines of one large file against the corpus average.

    python benchmarks/big_files.py                     # synthetic 5k/20k/50k lines, PyTorch's module, the corpus
    python benchmarks/big_files.py --sizes 5000 --no-corpus --runs 1

A file's cost must grow with its size, not faster: CPU per 1,000 lines of each
big file should stay within 1.5x of the corpus average. The targets:

* synthetic files of `--sizes` lines, one training function every 9 lines (each
  moves the model to CUDA, keeps its loss in a list, and calls an imported
  function afterwards: the shape that made the project summary quadratic);
* `torch/testing/_internal/common_methods_invocations.py` (27,820 lines in torch
  2.13) read from the installed torch (`--torch-module PATH` for another copy;
  it is never copied into this repository);
* the corpus of `benchmarks/bench.py` (lightning 2.6.6 + torchtune 0.6.1,
  fetched with `pip download` into `--corpus`).

Each target is linted in a fresh process, in-process (`engine.lint_path`, every
rule, no cache, no worker pool), and its CPU time (`time.process_time`, so other
jobs on the machine do not count) is the median of `--runs`; next to it, a bare
`libcst.parse_module` of the same files (the floor: most corpus files are never
parsed, as no rule can fire in them) and the CPU of the whole `memlint --no-cache`
command (start-up and worker processes included: how the issue measured it).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
HEADER = "import torch\nfrom helpers import log_metrics\n\nhistory = []\n\n"
BLOCK = """def train_{i}(model, loader, optimizer):
    model.cuda()
    for batch in loader:
        loss = model(batch.cuda()).sum()
        loss.backward()
        optimizer.step()
        history.append(loss)
    log_metrics(history)

"""


def synthetic(lines: int) -> str:
    """A module of `lines` lines: one training function every 9 lines."""
    parts = [HEADER]
    count = HEADER.count("\n")
    index = 0
    while count < lines:
        parts.append(BLOCK.format(i=index))
        index += 1
        count += BLOCK.count("\n")
    return "".join(parts)


def torch_module() -> Path | None:
    """The installed torch's `common_methods_invocations.py`, found without importing torch."""
    spec = importlib.util.find_spec("torch")
    for location in (spec.submodule_search_locations or []) if spec else []:
        path = Path(location) / "testing" / "_internal" / "common_methods_invocations.py"
        if path.is_file():
            return path
    return None


def measure(paths: list[str]) -> dict:
    """Lint `paths` in this process; CPU seconds of the lint alone (imports excluded)."""
    from memlint.engine import lint_path
    from memlint.rules import ALL_RULES, FILE_PROBLEMS

    import gc

    import libcst

    codes = [r.code for r in (*ALL_RULES, *FILE_PROBLEMS)]
    lines = sum(Path(p).read_bytes().count(b"\n") for p in paths)
    start = time.process_time()
    findings = errors = 0
    for path in paths:
        result = lint_path(path, codes)
        findings += len(result.findings)
        errors += len(result.errors)
    cpu = time.process_time() - start
    gc.disable()  # as memlint parses (engine._collector_paused)
    start = time.process_time()
    for path in paths:
        try:
            libcst.parse_module(Path(path).read_bytes())
        except Exception:  # noqa: BLE001 - a file that does not parse costs what it costs
            pass
    parse = time.process_time() - start
    return {"cpu": cpu, "parse": parse, "lines": lines, "findings": findings, "errors": errors}


def cli_cpu(paths: list[Path]) -> float:
    """CPU of the whole `memlint --no-cache` command (start-up and worker processes included)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        [sys.executable, "-m", "memlint", "--no-cache", "--exit-zero", "-q", *map(str, paths)],
        stdout=subprocess.DEVNULL,
        check=True,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def run_target(paths: list[Path], runs: int) -> dict:
    samples = []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, __file__, "--measure", *map(str, paths)], check=True, capture_output=True, text=True
        ).stdout
        samples.append(json.loads(out))
    result = dict(samples[0])
    for key in ("cpu", "parse"):
        result[key] = statistics.median(s[key] for s in samples)
    result["per_1k"] = result["cpu"] / result["lines"] * 1000
    result["cli_cpu"] = statistics.median(cli_cpu(paths) for _ in range(runs))
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="5000,20000,50000", help="synthetic file sizes in lines")
    parser.add_argument("--torch-module", type=Path, default=None, help="default: the installed torch's copy")
    parser.add_argument("--corpus", type=Path, default=Path(tempfile.gettempdir()) / "memlint-bench-corpus")
    parser.add_argument("--no-corpus", action="store_true")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", type=Path, default=None, help="also write the results here")
    parser.add_argument(
        "--torch-tree", action="store_true", help="also time the `memlint` command on the whole installed torch package"
    )
    parser.add_argument("--measure", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure)))
        return

    targets: dict[str, list[Path]] = {}
    scratch = Path(tempfile.mkdtemp(prefix="memlint-big-"))
    for size in (int(s) for s in args.sizes.split(",") if s):
        path = scratch / f"synthetic_{size}.py"
        path.write_text(synthetic(size))
        targets[f"synthetic {size:,} lines"] = [path]
    module = args.torch_module or torch_module()
    if module is not None and module.is_file():
        targets[f"torch {module.name}"] = [module]
    else:
        print("note: torch's common_methods_invocations.py not found (pass --torch-module PATH)", file=sys.stderr)
    if not args.no_corpus:
        sys.path.insert(0, str(HERE))
        from bench import PACKAGES, fetch

        targets[f"corpus ({', '.join(PACKAGES)})"] = sorted(fetch(args.corpus).rglob("*.py"))

    results = {name: run_target(paths, args.runs) for name, paths in targets.items()}
    corpus = next((r for name, r in results.items() if name.startswith("corpus")), None)
    print(
        "| target | lines | lint CPU (s) | per 1,000 lines (s) | vs corpus | bare parse CPU (s) | lint / parse "
        "| `memlint` command CPU (s) | per 1,000 lines (s) | vs corpus |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, r in results.items():
        cli_1k = r["cli_cpu"] / r["lines"] * 1000
        ratio = f"{r['per_1k'] / corpus['per_1k']:.2f}x" if corpus else "-"
        cli_ratio = f"{cli_1k / (corpus['cli_cpu'] / corpus['lines'] * 1000):.2f}x" if corpus else "-"
        print(
            f"| {name} | {r['lines']:,} | {r['cpu']:.2f} | {r['per_1k']:.3f} | {ratio} | {r['parse']:.2f} "
            f"| {r['cpu'] / r['parse']:.2f}x | {r['cli_cpu']:.2f} | {cli_1k:.3f} | {cli_ratio} |"
        )
    installed = torch_module()
    if args.torch_tree and installed is not None:
        tree = installed.parents[2]
        files = sorted(tree.rglob("*.py"))
        lines = sum(p.read_bytes().count(b"\n") for p in files)
        cpu = cli_cpu([tree])
        results["torch tree"] = {"files": len(files), "lines": lines, "cli_cpu": cpu}
        print(f"\nthe installed torch package: {len(files):,} files, {lines:,} lines, `memlint --no-cache` "
              f"{cpu:.1f} s CPU ({cpu / lines * 1000:.3f} s per 1,000 lines)")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
