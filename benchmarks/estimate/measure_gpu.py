"""Real peak GPU memory of each benchmark configuration against `memlint estimate`'s
prediction, each run in a process of its own.

    python benchmarks/estimate/measure_gpu.py OUTDIR [NAME_PREFIX ...]
    python benchmarks/estimate/measure_gpu.py --table PREDICTED.json MEASURED.json ...   # the docs' table

On a GPU machine: for each configuration, (1) the real run: 2 optimizer steps on the GPU,
then `torch.cuda.max_memory_allocated()` / `max_memory_reserved()`; (2) the prediction,
made on fake tensors (`memlint.estimate`, the same code the CLI runs, without the CLI so
that libcst/click need not be installed). Writes OUTDIR/estimate_gpu[_$ESTIMATE_GPU_TAG].json and prints a
table. Configurations whose libraries are missing (peft, transformers, lightning) are
listed as skipped. On a CPU-only machine it only predicts (--predict-only).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAMS = os.path.join(HERE, "programs")
ROOT = os.path.dirname(os.path.dirname(HERE))
STEPS = 2

FACTORIES = [f"{m}:{c}" for m in ("gpt", "vit", "resnet", "unet", "lora") for c in ("fp32", "bf16", "ckpt")]
FACTORIES += ["lstm:fp32", "lstm:bf16", "amp_small_batch:fp32", "amp_small_batch:amp"]
COMMANDS = [("bert_trainer.py",), ("bert_trainer.py", "--bf16"), ("bert_trainer.py", "--ckpt"),
            ("lightning_module.py",), ("lightning_module.py", "--bf16")]
NEEDS = {"lora": ("peft", "transformers"), "bert_trainer.py": ("transformers",),
         "lightning_module.py": ("pytorch_lightning",)}


def _real_factory(target: str) -> dict:
    import torch

    module, _, name = target.partition(":")
    sys.path.insert(0, PROGRAMS)
    made = getattr(__import__(module), name)()
    step = made["train"] if isinstance(made, dict) else made  # the programs' factories return step functions
    start = time.perf_counter()
    for _ in range(STEPS):
        step()
    torch.cuda.synchronize()
    return {"allocated": torch.cuda.max_memory_allocated(), "reserved": torch.cuda.max_memory_reserved(),
            "seconds": round(time.perf_counter() - start, 2)}


def _real_command(script: str, *args: str) -> dict:
    import runpy

    import torch

    os.environ["BENCH_STEPS"] = str(STEPS)
    sys.path.insert(0, PROGRAMS)
    sys.argv = [script, *args]
    start = time.perf_counter()
    runpy.run_path(os.path.join(PROGRAMS, script), run_name="__main__")
    torch.cuda.synchronize()
    return {"allocated": torch.cuda.max_memory_allocated(), "reserved": torch.cuda.max_memory_reserved(),
            "seconds": round(time.perf_counter() - start, 2)}


def _predict(kind: str, spec: list[str]) -> dict:
    sys.path.insert(0, ROOT)
    import torch

    name = torch.cuda.get_device_name(0) if torch.cuda.is_available() else "NVIDIA H100 80GB HBM3"
    total = torch.cuda.get_device_properties(0).total_memory if torch.cuda.is_available() else 80 << 30
    os.chdir(PROGRAMS)
    if kind == "factory":
        from memlint.estimate.predict import predict_factory

        return predict_factory(spec[0], steps=STEPS, gpu=(name, total), eval_step=False)
    from memlint.estimate import program

    os.environ["BENCH_STEPS"] = str(STEPS + 1)  # the prediction stops itself after STEPS
    return program.run([sys.executable, *spec], (name, total), STEPS, timeout=300)


def _child(args: list[str]) -> None:
    """One measurement in this process; prints one JSON line."""
    mode, kind, spec = args[0], args[1], args[2:]
    try:
        if mode == "real":
            result = _real_factory(spec[0]) if kind == "factory" else _real_command(*spec)
        else:
            result = _predict(kind, spec)
    except Exception as exc:  # noqa: BLE001 - recorded in the table, the other configurations go on
        result = {"error": f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"[:300]}
    print("RESULT " + json.dumps(result), flush=True)


def _run(mode: str, kind: str, spec: list[str], timeout: float) -> dict:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (ROOT, PROGRAMS, os.environ.get("PYTHONPATH")) if p))
    start = time.monotonic()
    try:
        done = subprocess.run([sys.executable, __file__, "--child", mode, kind, *spec], capture_output=True,
                              text=True, timeout=timeout, env=env, cwd=PROGRAMS)
    except subprocess.TimeoutExpired:
        return {"error": f"timeout after {timeout:.0f} s"}
    lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    if not lines:
        tail = (done.stderr or done.stdout).strip().splitlines()
        return {"error": tail[-1][:300] if tail else f"exit {done.returncode}"}
    result = json.loads(lines[-1][len("RESULT "):])
    result["wall_seconds"] = round(time.monotonic() - start, 1)
    return result


def _available(key: str) -> bool:
    import importlib.util

    return all(importlib.util.find_spec(name) is not None for name in NEEDS.get(key, ()))


def table(predicted_path: str, measured_paths: list[str]) -> str:
    """The accuracy page's table: each configuration's GPU reading (the last of the files that has it)
    against a --predict-only run's prediction; goal within 3% allocated and 10% reserved."""
    mib = 1 << 20
    measured: dict[str, dict] = {}
    for path in measured_paths:
        with open(path, encoding="utf-8") as handle:
            measured.update({row["config"]: row["real"] for row in json.load(handle)["rows"]
                             if row.get("real", {}).get("allocated")})
    with open(predicted_path, encoding="utf-8") as handle:
        predicted = {row["config"]: row["predicted"] for row in json.load(handle)["rows"]}
    lines = ["| configuration | real allocated / reserved | predicted | error |", "|---|---:|---:|---:|"]
    for kind, spec in [("factory", [t]) for t in FACTORIES] + [("command", list(c)) for c in COMMANDS]:
        label = " ".join(spec)
        real, pred = measured.get(label), predicted.get(label) or {}
        if not real or not pred.get("peak_allocated"):
            continue
        errors = [(pred[f"peak_{k}"] / real[k] - 1, bar) for k, bar in (("allocated", 0.03), ("reserved", 0.10))]
        text = " / ".join(f"{'✗ ' if abs(e) > bar else ''}{e * 100:+.1f}%".replace("-", "−") for e, bar in errors)
        lines.append(f"| `{label if kind == 'factory' else 'python ' + label}` | {real['allocated'] / mib:,.0f} / "
                     f"{real['reserved'] / mib:,.0f} | {pred['peak_allocated'] / mib:,.0f} / "
                     f"{pred['peak_reserved'] / mib:,.0f} | {text} |")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if argv and argv[0] == "--child":
        _child(argv[1:])
        return 0
    if argv and argv[0] == "--table":
        print(table(argv[1], argv[2:]))
        return 0
    predict_only = "--predict-only" in argv
    argv = [a for a in argv if a != "--predict-only"]
    outdir = argv[0] if argv else os.environ.get("OUT", ".")
    prefixes = argv[1:]
    jobs = [("factory", [t]) for t in FACTORIES] + [("command", list(c)) for c in COMMANDS]
    rows = []
    budget = float(os.environ.get("ESTIMATE_GPU_BUDGET", "480"))  # seconds; the device allows 600 a command
    started = time.monotonic()
    for kind, spec in jobs:
        label = " ".join(spec)
        if prefixes and not any(label.startswith(p) for p in prefixes):
            continue
        key = spec[0].split(":")[0]
        row: dict = {"config": label, "kind": kind}
        if not _available(key):
            row["skipped"] = f"needs {', '.join(NEEDS[key])}"
        elif time.monotonic() - started > budget:
            row["skipped"] = "time budget spent"
        else:
            if not predict_only:
                row["real"] = _run("real", kind, spec, timeout=240)
            predicted = _run("predict", kind, spec, timeout=240)
            row["predicted"] = {k: predicted.get(k) for k in (
                "peak_allocated", "peak_reserved", "peak_phase", "breakdown", "stopped", "seconds",
                "wall_seconds", "error", "steps_run", "torch")}
            real = row.get("real", {})
            if real.get("allocated") and predicted.get("peak_allocated"):
                row["error_allocated"] = round(predicted["peak_allocated"] / real["allocated"] - 1, 4)
                row["error_reserved"] = round(predicted["peak_reserved"] / real["reserved"] - 1, 4)
        rows.append(row)
        _print_row(row)
        tag = os.environ.get("ESTIMATE_GPU_TAG", "")
        with open(os.path.join(outdir, f"estimate_gpu{'_' + tag if tag else ''}.json"), "w", encoding="utf-8") as handle:
            json.dump({"rows": rows, "environment": _environment()}, handle, indent=1)
    return 0


def _print_row(row: dict) -> None:
    mib = 1 << 20
    real, pred = row.get("real", {}), row.get("predicted", {})
    if "skipped" in row:
        print(f"{row['config']:<32} skipped: {row['skipped']}", flush=True)
        return
    text = f"{row['config']:<32}"
    if real.get("allocated"):
        text += f" real {real['allocated'] / mib:9.1f} / {real['reserved'] / mib:9.1f} MiB"
    elif real:
        text += f" real ERROR {real.get('error')}"
    if pred.get("peak_allocated"):
        text += f"  predicted {pred['peak_allocated'] / mib:9.1f} / {pred['peak_reserved'] / mib:9.1f} MiB"
        text += f" in {pred.get('wall_seconds')} s"
    else:
        text += f"  predicted ERROR {pred.get('error')}"
    if "error_allocated" in row:
        text += f"  err {row['error_allocated']:+.1%} / {row['error_reserved']:+.1%}"
    if pred.get("stopped"):
        text += f"  [{pred['stopped']}]"
    print(text, flush=True)


def _environment() -> dict:
    import torch

    info = {"torch": torch.__version__, "python": sys.version.split()[0]}
    if torch.cuda.is_available():
        info.update(device=torch.cuda.get_device_name(0), cuda=torch.version.cuda,
                    total_memory=torch.cuda.get_device_properties(0).total_memory)
    return info


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
