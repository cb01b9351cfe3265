"""`memlint verify -- COMMAND` on a GPU: the figure scripts of docs/accuracy.md run through
`-- python SCRIPT` (slopes compared with benchmarks/results/verify_figures_h200.json)
and a two-rank DDP run where rank 0 keeps its evaluation outputs.

    python benchmarks/verify_project_gpu.py OUTDIR
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIGURES = os.path.join("benchmarks", "verify_figures")


def verify(*args: str, timeout: float = 240) -> tuple[int, list[dict], str]:
    proc = subprocess.run([sys.executable, "-m", "memlint", "verify", "--format", "json", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    try:
        return proc.returncode, json.loads(proc.stdout), proc.stderr
    except ValueError:
        return proc.returncode, [], proc.stdout + proc.stderr


def main() -> None:
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(ROOT, "benchmarks", "results", "verify_figures_h200.json"), encoding="utf-8") as handle:
        committed = {(os.path.basename(i["filename"]), i["code"]): i for i in json.load(handle)}
    rows = []
    for name in sorted(os.listdir(os.path.join(ROOT, FIGURES))):
        script = os.path.join(FIGURES, name)
        code, items, err = verify(script, "--", sys.executable, script)
        for item in items:
            before = committed.get((name, item["code"]))
            row = {"script": name, "code": item["code"], "verdict": item["verdict"],
                   "slope_mib_per_iter": item["slope_mib_per_iter"], "device": item["device"],
                   "allocations": item["allocations"][:2], "note": item["note"], "error": item["error"][-500:]}
            if before is not None:
                row["committed_verdict"] = before["verdict"]
                row["committed_slope"] = before["slope_mib_per_iter"]
                if before["slope_mib_per_iter"]:
                    row["slope_ratio"] = round(item["slope_mib_per_iter"] / before["slope_mib_per_iter"], 4)
            rows.append(row)
        print(name, code, [(r["code"], r["verdict"], r["slope_mib_per_iter"], r.get("committed_slope")) for r in rows if r["script"] == name], err[-300:], flush=True)
    ddp = os.path.join("benchmarks", "verify_project", "ddp_eval_rank0.py")
    import importlib.util

    plot = ["--plot", os.path.join(out, "ddp_ranks.png")] if importlib.util.find_spec("matplotlib") else []
    code, items, err = verify(ddp, "--snapshot", os.path.join(out, "snapshots"), *plot,
                              "--", sys.executable, "-m", "torch.distributed.run", "--nproc-per-node", "2", ddp)
    print("ddp", code, err[-2000:], flush=True)
    import torch

    result = {"device": torch.cuda.get_device_name(0), "gpus": torch.cuda.device_count(), "torch": torch.__version__,
              "figures": rows, "ddp": {"exit_code": code, "items": items}}
    with open(os.path.join(out, "verify_project_gpu.json"), "w", encoding="utf-8") as handle:
        json.dump(result, handle, indent=1)
    text = subprocess.run([sys.executable, "-m", "memlint", "verify", "--no-color", ddp, "--", sys.executable, "-m",
                           "torch.distributed.run", "--nproc-per-node", "2", ddp],
                          cwd=ROOT, capture_output=True, text=True, timeout=240)
    with open(os.path.join(out, "verify_project_ddp.txt"), "w", encoding="utf-8") as handle:
        handle.write(text.stdout + text.stderr)
    print(text.stdout)


if __name__ == "__main__":
    main()
