"""Per-rank peak of data-parallel training (programs/distributed_gpt.py: DDP, FSDP2, FSDP1),
measured on N real GPUs with torchrun, or predicted by `memlint estimate -- torchrun ...`.

    python measure_distributed.py gpu OUT.json [N ...]       # on a machine with N GPUs (default 1 2 4)
    python measure_distributed.py predict OUT.json [N ...]   # here, no GPU (default 1 2 4 64)

Each rank's max_memory_allocated / max_memory_reserved after 2 optimizer steps
(public/measure_hook); the prediction is rank 0's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PROGRAM = os.path.join(HERE, "programs", "distributed_gpt.py")
CONFIGS = {"ddp-gpt": ["--mode", "ddp"], "fsdp2-gpt": ["--mode", "fsdp2"], "fsdp1-gpt": ["--mode", "fsdp1"]}


def argv(config: str, gpus: int) -> list[str]:
    return [sys.executable, "-m", "torch.distributed.run", "--standalone", f"--nproc-per-node={gpus}", PROGRAM,
            *CONFIGS[config]]


def measure(config: str, gpus: int) -> dict:
    out = os.path.join("/tmp", f"dist-{config}-{gpus}")
    env = dict(os.environ, MEASURE_OUT=out, MEASURE_STEPS="2",
               PYTHONPATH=os.pathsep.join([os.path.join(HERE, "public", "measure_hook"), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run(argv(config, gpus), env=env, capture_output=True, text=True, timeout=240)
    ranks = []
    for rank in range(gpus):
        if os.path.exists(f"{out}.rank{rank}"):
            with open(f"{out}.rank{rank}", encoding="utf-8") as handle:
                ranks.append(json.load(handle))
    result = {"id": config, "gpus": gpus, "rc": proc.returncode, "ranks": ranks}
    if len(ranks) < gpus:
        result["tail"] = (proc.stdout + proc.stderr)[-1500:]
    return result


def predict(config: str, gpus: int) -> dict:
    command = [sys.executable, "-m", "memlint", "estimate", "--format", "json", "--", *argv(config, gpus)]
    started = time.perf_counter()
    proc = subprocess.run(command, env=dict(os.environ, PYTHONPATH=ROOT), capture_output=True, text=True, timeout=300)
    result = {"id": config, "gpus": gpus, "exit": proc.returncode, "wall_seconds": round(time.perf_counter() - started, 1)}
    try:
        report = json.loads(proc.stdout)
    except json.JSONDecodeError:
        result["error"] = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        return result
    result.update({k: report.get(k) for k in ("peak_allocated", "peak_reserved", "breakdown", "stopped", "world_size",
                                              "some_ranks")})
    return result


def main() -> None:
    side, out, *counts = sys.argv[1:]
    counts = [int(n) for n in counts] or ([1, 2, 4] if side == "gpu" else [1, 2, 4, 64])
    run = measure if side == "gpu" else predict
    results = []
    for gpus in counts:
        for config in CONFIGS:
            result = run(config, gpus)
            results.append(result)
            print(json.dumps({k: v for k, v in result.items() if k != "breakdown"})[:600], flush=True)
    import torch

    info = {"date": time.strftime("%Y-%m-%d"), "torch": torch.__version__}
    if side == "gpu":
        info["gpu"] = torch.cuda.get_device_name()
    with open(out, "w", encoding="utf-8") as handle:
        json.dump({**info, "results": results}, handle, indent=1)


if __name__ == "__main__":
    main()
