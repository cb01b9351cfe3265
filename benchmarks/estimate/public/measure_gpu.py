"""Ground truth for the public benchmark: each configuration of manifest.json run
unmodified on the GPU, each in its own process (torchrun for the distributed ones), with
measure_hook/ on PYTHONPATH reading the peak after the configured optimizer steps.

    python measure_gpu.py OUT.json [--gpus N] [--jobs J] [--steps S] [ID_PREFIX ...]

--gpus N runs the configurations whose "gpus" list holds N (default 1: those without a
list, and torchrun ones with 1 in it) with torchrun --nproc-per-node N. --jobs runs that
many single-GPU configurations at once (each process has its own allocator statistics).
Run `python sources.py data` first.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from sources import SRC, manifest  # noqa: E402


def command(script: dict, config: dict, gpus: int) -> tuple[list[str], str, dict]:
    """(argv, cwd, extra PYTHONPATH entries) of one configuration."""
    cwd = os.path.join(SRC, script["source"], script["cwd"])
    argv = [sys.executable, script["script"], *config["args"]]
    if script.get("torchrun"):
        argv = [sys.executable, "-m", "torch.distributed.run", "--standalone", f"--nproc-per-node={gpus}",
                script["script"], *config["args"]]
    paths = [os.path.normpath(os.path.join(cwd, p)) for p in script.get("pythonpath", [])]
    return argv, cwd, paths


def selected(gpus: int, prefixes: list[str], any_gpus: bool = False):
    for script in manifest()["scripts"]:
        for config in script["configs"]:
            if gpus not in config.get("gpus", [1]) and not any_gpus:
                continue
            if prefixes and not any(config["id"].startswith(p) for p in prefixes):
                continue
            yield script, config


def run_one(script: dict, config: dict, gpus: int, steps: int, timeout: float) -> dict:
    argv, cwd, paths = command(script, config, gpus)
    out = tempfile.mktemp(prefix=f"measure-{config['id']}-")
    env = dict(os.environ, MEASURE_OUT=out, MEASURE_STEPS=str(steps), PYTHONUNBUFFERED="1")
    env.update(script.get("env", {}))  # what the script needs to run offline (WANDB_MODE)
    env["PYTHONPATH"] = os.pathsep.join([os.path.join(HERE, "measure_hook"), *paths, env.get("PYTHONPATH", "")])
    started = time.perf_counter()
    try:
        proc = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)
        rc, tail = proc.returncode, (proc.stdout + proc.stderr)[-1500:]
    except subprocess.TimeoutExpired as exc:
        rc, tail = "timeout", str(exc.stdout or "")[-1500:]
    ranks = []
    for rank in range(gpus):
        # A launcher (Lightning) may set RANK in a single process too: .rank0 then.
        candidates = [out + f".rank{rank}"] + ([] if script.get("torchrun") else [out])
        for path in filter(os.path.exists, candidates):
            with open(path, encoding="utf-8") as handle:
                ranks.append(json.load(handle))
            os.remove(path)
    result = {"id": config["id"], "script": script["name"], "gpus": gpus, "rc": rc,
              "seconds": round(time.perf_counter() - started, 1), "ranks": ranks}
    if not ranks or rc not in (0, "timeout") and not all(r["reached_steps"] for r in ranks):
        result["tail"] = tail
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("prefixes", nargs="*")
    parser.add_argument("--gpus", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--steps", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=150)
    args = parser.parse_args()
    jobs = [(s, c) for s, c in selected(args.gpus, args.prefixes)]
    results = []
    workers = args.jobs if args.gpus == 1 else 1
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        futures = [pool.submit(run_one, s, c, args.gpus, args.steps, args.timeout) for s, c in jobs]
        for future in concurrent.futures.as_completed(futures):
            result = future.result()
            results.append(result)
            peaks = ", ".join(f"{r['allocated'] / 2**20:.1f}/{r['reserved'] / 2**20:.1f} MiB" for r in result["ranks"])
            print(f"{result['id']:<28} x{result['gpus']} rc={result['rc']} {result['seconds']:>6}s {peaks}", flush=True)
    import torch

    with open(args.out, "w", encoding="utf-8") as handle:
        json.dump({"date": time.strftime("%Y-%m-%d"), "torch": torch.__version__, "cuda": torch.version.cuda,
                   "gpu": torch.cuda.get_device_name(), "steps": args.steps,
                   "results": sorted(results, key=lambda r: r["id"])}, handle, indent=1)


if __name__ == "__main__":
    main()
