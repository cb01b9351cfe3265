"""Find, fix, prove on a GPU (issue 17): real Lightning 2.6 and Hugging Face Trainer scripts
(benchmarks/verify_fix/), each linted, fixed in memory and measured before and after the fix by

    memlint verify --compare-fix -- python train.py

in a directory of its own; each script logs its own torch.cuda.memory_allocated() and the
step's peak after every step ($MEMLOG, one pid per run: as written, then fixed), the ground
truth memlint's slopes are compared with.

    python benchmarks/verify_fix_gpu.py OUTDIR [SCRIPT...]   (default: all four)

Writes OUTDIR/verify_fix_gpu.json (memlint's items and each run's own log), OUTDIR/verify_fix_gpu.png
and OUTDIR/verify_fix_gpu.txt (the fixes as diffs).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPTS = os.path.join(ROOT, "benchmarks", "verify_fix")
CASES = ["lightning_train_logits.py", "lightning_callback_val_outputs.py", "hf_compute_loss_logits.py",
         "lightning_decode_bf16.py"]
MIB = 1024 * 1024


def slope(values: list[float], warmup: int = 3) -> float:
    """Least-squares MiB per step after the warm-up (the scripts' own log)."""
    ys = values[warmup:]
    if len(ys) < 2:
        return 0.0
    xs = list(range(len(ys)))
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    den = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / den if den else 0.0


def runs(memlog: str) -> list[list[dict]]:
    """The logged steps of each run, in the order the runs started."""
    by_pid: dict[int, list[dict]] = {}
    if os.path.exists(memlog):
        with open(memlog, encoding="utf-8") as handle:
            for line in handle:
                record = json.loads(line)
                by_pid.setdefault(record["pid"], []).append(record)
    return list(by_pid.values())


def ground_truth(records: list[dict]) -> dict:
    allocated = [r["allocated"] / MIB for r in records]
    peaks = [r["peak"] / MIB for r in records]
    return {"steps": len(records), "allocated_mib": [round(a, 3) for a in allocated],
            "peak_mib": [round(p, 3) for p in peaks], "slope_mib_per_step": round(slope(allocated), 4),
            "max_peak_mib": round(max(peaks[1:] or peaks or [0.0]), 1)}


def main() -> None:
    out = os.path.abspath(sys.argv[1])
    os.makedirs(out, exist_ok=True)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (ROOT, os.environ.get("PYTHONPATH", "")) if p)}
    results = []
    report = []
    for name in sys.argv[2:] or CASES:
        work = os.path.join(out, "work", name[:-3])
        os.makedirs(work, exist_ok=True)
        shutil.copy(os.path.join(SCRIPTS, name), os.path.join(work, "train.py"))
        shutil.copy(os.path.join(SCRIPTS, "memlog.py"), work)
        memlog = os.path.join(work, "memlog.jsonl")
        run_env = {**env, "MEMLOG": memlog}
        lint = subprocess.run([sys.executable, "-m", "memlint", "--no-cache", "--diff", "--unsafe-fixes", "train.py"],
                              cwd=work, env=run_env, capture_output=True, text=True, timeout=300)
        verify = subprocess.run([sys.executable, "-m", "memlint", "verify", "--compare-fix", "--format", "json",
                                 "-n", "30", "--timeout", "400", "--", sys.executable, "train.py"],
                                cwd=work, env=run_env, capture_output=True, text=True, timeout=900)
        try:
            items = json.loads(verify.stdout)
        except ValueError:
            items = [{"error": verify.stdout[-3000:] + verify.stderr[-3000:]}]
        logged = runs(memlog)
        row = {"script": name, "diff": lint.stdout, "exit_code": verify.returncode, "items": items,
               "script_log": {"as_written": ground_truth(logged[0]) if logged else None,
                              "fixed": ground_truth(logged[1]) if len(logged) > 1 else None},
               "stderr": verify.stderr[-2000:]}
        results.append(row)
        report.append(f"## {name}\n{lint.stdout}\n{verify.stderr[-1500:]}")
        truth = row["script_log"]
        print(name, verify.returncode,
              [(i.get("code"), i.get("verdict"), i.get("slope_mib_per_iter"), i.get("peak_mib"),
                (i.get("after_fix") or {}).get("verdict"), (i.get("after_fix") or {}).get("slope_mib_per_iter"),
                (i.get("after_fix") or {}).get("peak_mib"), i.get("fix_result")) for i in items],
              {k: (v or {}).get("slope_mib_per_step") for k, v in truth.items()},
              {k: (v or {}).get("max_peak_mib") for k, v in truth.items()}, flush=True)
    import torch

    data = {"device": torch.cuda.get_device_name(0) if torch.cuda.is_available() else "cpu", "torch": torch.__version__,
            "versions": _versions(), "results": results}
    with open(os.path.join(out, "verify_fix_gpu.json"), "w", encoding="utf-8") as handle:
        json.dump(data, handle, indent=1)
    with open(os.path.join(out, "verify_fix_gpu.txt"), "w", encoding="utf-8") as handle:
        handle.write("\n".join(report))
    _plot(results, data["device"], os.path.join(out, "verify_fix_gpu.png"))


def _versions() -> dict:
    from importlib.metadata import PackageNotFoundError, version

    found = {}
    for name in ("lightning", "transformers", "libcst", "click"):
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            found[name] = None
    return found


def _plot(results: list[dict], device: str, filename: str) -> None:
    try:
        import matplotlib
    except ImportError:
        return
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(results), figsize=(5.2 * len(results), 3.8), squeeze=False)
    for ax, row in zip(axes.flat, results):
        item = next((i for i in row["items"] if i.get("code")), {})
        for key, style, label in (("as_written", "-", "as written"), ("fixed", "--", "memlint's fix")):
            truth = row["script_log"].get(key)
            if not truth:
                continue
            series = truth["peak_mib"] if row["script"].endswith("decode_bf16.py") else truth["allocated_mib"]
            ys = [v - series[0] for v in series]
            measured = item.get("slope_mib_per_iter") if key == "as_written" else (item.get("after_fix") or {}).get("slope_mib_per_iter")
            ax.plot(range(len(ys)), ys, style, marker=".", label=f"{label}: script {truth['slope_mib_per_step']:+.3g}, memlint {measured}")
        kind = "peak within the step" if row["script"].endswith("decode_bf16.py") else "memory_allocated"
        ax.set_title(f"{row['script']} ({item.get('code')}, {item.get('fix_result') or item.get('verdict')})", fontsize=8)
        ax.set_xlabel("step")
        ax.set_ylabel(f"MiB above step 0 ({kind})")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    fig.suptitle(f"memlint verify --compare-fix -- python train.py ({device})", fontsize=10)
    fig.tight_layout()
    fig.savefig(filename, dpi=110)
    plt.close(fig)


if __name__ == "__main__":
    main()
