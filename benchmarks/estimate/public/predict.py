"""Predictions for the public benchmark: `memlint estimate --format json -- COMMAND` for
each configuration of manifest.json, on this (CPU-only) machine, one at a time.

    python predict.py OUT.json [--gpus N] [ID_PREFIX ...]
    python predict.py OUT.json --world-size 64 [ID_PREFIX ...]   # torchrun scripts, 8 a node, no GPU anywhere

The command is the one measure_gpu.py runs on the GPU, unchanged (with --world-size, the
torchrun configurations, launched with 8 processes a node, predicted for that many ranks).
cpu_shim/ is put on PYTHONPATH (see its docstring: only for a CUDA build of torchvision
next to a CPU torch).
Run `python sources.py data` first.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, HERE)
from measure_gpu import command, selected  # noqa: E402


def predict_one(script: dict, config: dict, gpus: int, timeout: float, world_size: int | None = None) -> dict:
    argv, cwd, paths = command(script, config, gpus)
    for name in script.get("writes", []):
        # A file the script resumes from, or a cache it loads (PyTorch Geometric's processed data): the
        # fake run's own save leaves a placeholder without data, which the next run would stop on.
        if os.path.exists(os.path.join(cwd, name)):
            os.remove(os.path.join(cwd, name))
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    env.update(script.get("env", {}))  # what the script needs to run offline (WANDB_MODE)
    env["PYTHONPATH"] = os.pathsep.join([ROOT, os.path.join(HERE, "cpu_shim"), *paths, env.get("PYTHONPATH", "")])
    started = time.perf_counter()
    cpu_before = _children_cpu()
    scale = ["--world-size", str(world_size)] if world_size else []
    estimate = [sys.executable, "-m", "memlint", "estimate", "--format", "json", "--timeout", str(timeout), *scale, "--",
                *argv]
    try:
        proc = subprocess.run(estimate, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout + 30,
                              stdin=subprocess.DEVNULL)
        rc, stdout, stderr = proc.returncode, proc.stdout, proc.stderr
    except subprocess.TimeoutExpired:
        rc, stdout, stderr = "timeout", "", ""
    # CPU seconds of the command's processes beside the wall time: the machine is shared, so the wall
    # time depends on what else runs; the CPU time is what the prediction costs.
    result = {"id": config["id"], "gpus": world_size or gpus, "exit": rc,
              "wall_seconds": round(time.perf_counter() - started, 1), "cpu_seconds": round(_children_cpu() - cpu_before, 1)}
    try:
        report = json.loads(stdout)
    except json.JSONDecodeError:
        result["error"] = (stderr.strip().splitlines() or ["no output"])[-1][:300]
        return result
    keep = ("peak_allocated", "peak_reserved", "peak_phase", "steps_run", "stopped", "seconds", "breakdown", "world_size",
            "kernel_side", "peak_allocated_without_autotuning", "peak_reserved_without_autotuning", "some_ranks", "compiled")
    result.update({k: report[k] for k in keep if k in report})
    return result


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("prefixes", nargs="*")
    parser.add_argument("--gpus", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=120)
    parser.add_argument("--world-size", type=int)
    args = parser.parse_args()
    results = []
    chosen = list(selected(args.gpus, args.prefixes))
    if args.world_size:  # every torchrun configuration, launched as one node of 8 of the world
        chosen = [(s, c) for s, c in selected(0, args.prefixes, any_gpus=True) if s.get("torchrun")]
    for script, config in chosen:
        result = predict_one(script, config, 8 if args.world_size else args.gpus, args.timeout, args.world_size)
        results.append(result)
        peak = (f"{result['peak_allocated'] / 2**20:.1f}/{result['peak_reserved'] / 2**20:.1f} MiB"
                if "peak_allocated" in result else result.get("error", ""))
        print(f"{config['id']:<28} exit={result['exit']} {result['wall_seconds']:>6}s (CPU {result['cpu_seconds']}s) {peak} "
              f"{result.get('stopped', '')[:200]}", flush=True)
    import torch

    with open(args.out, "w", encoding="utf-8") as handle:
        json.dump({"date": time.strftime("%Y-%m-%d"), "torch": torch.__version__, "machine": f"{os.cpu_count()} CPUs",
                   "results": results}, handle, indent=1)


if __name__ == "__main__":
    main()
