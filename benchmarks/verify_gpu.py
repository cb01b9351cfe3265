"""Run `memlint verify` on a GPU at full size and save everything it shows.

    python benchmarks/verify_gpu.py OUTDIR

writes to OUTDIR:
  verify_figures_gpu.json  the figure scripts (benchmarks/verify_figures/), --compare-fix, JSON
  verify_figures_gpu.log   what that run printed (warnings), normally nothing
  verify_figures_gpu.png   memory per iteration, before and after memlint's fixes
  verify_oom_gpu.txt       fig2 under --memory-limit 2048: a real CUDA out-of-memory error
  verify_cases_gpu_MLxxx.txt  `memlint verify test_cases/MLxxx_*` on the GPU, one rule at a time,
                           while the time budget (VERIFY_GPU_BUDGET seconds, default 470) lasts
  environment.json         device, driver, torch and CUDA versions
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def memlint(*args: str, timeout: float = 540) -> tuple[int, str, float]:
    start = time.monotonic()
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "memlint", "verify", "--no-color", *args],
            cwd=ROOT, capture_output=True, text=True, timeout=timeout,
        )
        out, rc = proc.stdout + proc.stderr, proc.returncode
    except subprocess.TimeoutExpired as exc:
        out, rc = (exc.stdout or b"").decode() if isinstance(exc.stdout, bytes) else (exc.stdout or ""), -1
        out += f"\n[verify_gpu] stopped after {timeout}s\n"
    return rc, out, time.monotonic() - start


def main() -> None:
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    import torch

    env = {
        "device": torch.cuda.get_device_name(0),
        "memory_gib": round(torch.cuda.get_device_properties(0).total_memory / 2**30, 1),
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "python": sys.version.split()[0],
    }
    try:
        env["driver"] = subprocess.run(
            ["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"], capture_output=True, text=True
        ).stdout.strip()
    except OSError:
        pass
    figures = os.path.join("benchmarks", "verify_figures")
    steps = [
        ("verify_figures_gpu.log", [figures, "--compare-fix", "--format", "json", "-o", os.path.join(out, "verify_figures_gpu.json"),
                                    "--plot", os.path.join(out, "verify_figures_gpu.png")], 300),
        ("verify_oom_gpu.txt", [os.path.join(figures, "fig2_no_backward_append.py"), "--memory-limit", "2048", "--iterations", "200", "--", "--steps", "1000"], 120),
    ]
    cases = sorted(d for d in os.listdir(os.path.join(ROOT, "test_cases")) if d.startswith("ML"))
    steps += [(f"verify_cases_gpu_{d[:5]}.txt", [os.path.join("test_cases", d), "--timeout", "60"], 200) for d in cases]
    budget = float(os.environ.get("VERIFY_GPU_BUDGET", "470"))
    started = time.monotonic()
    for name, args, limit in steps:
        left = budget - (time.monotonic() - started)
        if left < 20:
            env[name] = "skipped: out of time"
            continue
        rc, text, seconds = memlint(*args, timeout=min(limit, left))
        env[name] = {"exit_code": rc, "seconds": round(seconds, 1)}
        with open(os.path.join(out, name), "w", encoding="utf-8") as handle:
            handle.write(text)
        print(f"{name}: exit {rc} in {seconds:.0f}s", flush=True)
    with open(os.path.join(out, "environment.json"), "w", encoding="utf-8") as handle:
        json.dump(env, handle, indent=2)
    print(json.dumps(env, indent=2))


if __name__ == "__main__":
    main()
