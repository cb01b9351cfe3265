"""From conv_probe.py's raw output to the table memlint's estimate reads
(memlint/estimate/cudnn_workspaces.py) and a reduced copy of the measurements
(benchmarks/results/estimate_conv_probe_h200.json: per cuDNN call, the workspaces it took).

    python conv_table.py add DIR [STEM]  # the stored table and DIR's STEM_plain.json / STEM_benchmark.json (sweep_cl; modelsN: networks)
    python conv_table.py DIR   # DIR holds conv_probe.py's models_*.json, models2_*.json, models3_*.json (later batches of
                               # networks) and sweep_*.json, each plain and benchmark

A workspace is an allocation the call freed before it returned (its outputs stay). With
cudnn.benchmark on, the first call of a shape takes the trial workspace (the largest of the
call) and then the chosen plan's; later calls take the chosen plan's only.
"""

from __future__ import annotations

import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, ROOT)
from memlint.estimate.cudnn_conv import conv_key  # noqa: E402


def workspaces(events: list) -> list[int]:
    """Sizes of the allocations freed within the call, in order."""
    live: dict[int, int] = {}
    freed = []
    for index, (action, size) in enumerate(events):
        if action == "alloc":
            live[index] = size
        elif action == "free_requested":
            match = next((i for i, s in live.items() if s == size), None)
            if match is not None:
                freed.append(live.pop(match))
    return freed


def key_of(call: dict) -> str:
    return conv_key(call["direction"], call["input"]["dtype"], call["input"]["shape"], call["weight"]["shape"],
                    call["stride"], call["padding"], call["dilation"], call["transposed"], call["output_padding"],
                    call["groups"], call["input"]["channels_last"])


def reduced(call: dict, source: str, step: int) -> dict:
    return {"key": key_of(call), "source": source, "step": step, "workspaces": workspaces(call["events"]),
            "free": call["free"], "allocated_before": call["allocated_before"]}


def main(folder: str) -> None:
    calls = []
    header = {}
    for mode in ("plain", "benchmark"):
        for batch in ("models", "models2", "models3"):
            with open(os.path.join(folder, f"{batch}_{mode}.json"), encoding="utf-8") as handle:
                models = json.load(handle)
            header = {k: models[k] for k in ("torch", "cudnn", "gpu", "total")}
            for model in models["models"]:
                for step, step_calls in enumerate(model.get("steps", [])):
                    calls += [{**reduced(c, model["model"], step), "mode": mode} for c in step_calls]
        with open(os.path.join(folder, f"sweep_{mode}.json"), encoding="utf-8") as handle:
            sweep = json.load(handle)["sweep"]
        calls += [{**reduced(c, "sweep", 0), "mode": mode} for c in sweep if "events" in c]
    write(calls, header, "conv_probe.py models/sweep, plain and benchmark, on the device tool (2026-11-27)")


def write(calls: list[dict], header: dict, about: str) -> None:
    """The reduced measurements (benchmarks/results) and the table memlint's estimate reads."""
    table: dict[str, list] = {}  # key -> [trial, chosen (benchmark), chosen (plain)]; None: not seen
    seen_benchmark: set[tuple[str, str]] = set()  # (process, key): the plan cache is per process
    for call in calls:
        entry = table.setdefault(call["key"], [None, None, None])
        spaces = call["workspaces"]
        if call["mode"] == "plain":
            entry[2] = max(entry[2] or 0, max(spaces, default=0))
            continue
        process = call["source"]
        if (process, call["key"]) not in seen_benchmark:  # the first call: Find's trial, then the chosen plan's
            seen_benchmark.add((process, call["key"]))
            entry[0] = max(entry[0] or 0, max(spaces, default=0))
            if len(spaces) >= 2:
                entry[1] = spaces[-1]
        elif entry[1] is None:
            entry[1] = max(spaces, default=0)
    keys = sorted({c["key"] for c in calls})
    sources = sorted({c["source"] for c in calls})
    index, source_index = {k: i for i, k in enumerate(keys)}, {s: i for i, s in enumerate(sources)}
    out = os.path.join(ROOT, "benchmarks", "results", "estimate_conv_probe_h200.json")
    with open(out, "w", encoding="utf-8") as handle:
        json.dump({**header, "about": about + "; per cuDNN call, in the order they ran: the workspaces freed within it, in order",
                   "fields": ["key", "source", "benchmark", "step", "workspaces", "free MiB"], "keys": keys,
                   "sources": sources,
                   "calls": [[index[c["key"]], source_index[c["source"]], int(c["mode"] == "benchmark"), c["step"],
                              c["workspaces"], c["free"] >> 20] for c in calls]}, handle, separators=(",", ":"))
    lines = [
        '"""Generated by benchmarks/estimate/conv_table.py from benchmarks/results/estimate_conv_probe_h200.json:',
        f"cuDNN convolution workspaces measured on {header['gpu']} (torch {header['torch']}, cuDNN {header['cudnn']}),",
        "per call (`cudnn_conv.conv_key`): [trial workspace of cudnn.benchmark's first call, the plan it chose,",
        'the plan chosen with cudnn.benchmark off], in bytes; None where not measured."""',
        "",
        f"MEASURED_ON = {{'gpu': {header['gpu']!r}, 'torch': {header['torch']!r}, 'cudnn': {header['cudnn']}}}",
        "WORKSPACES = {",
        *[f"    {key!r}: {value!r}," for key, value in sorted(table.items())],
        "}",
        "",
    ]
    with open(os.path.join(ROOT, "memlint", "estimate", "cudnn_workspaces.py"), "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines))
    print(len(calls), "calls,", len(table), "shapes")


def add(folder: str, stem: str = "sweep_cl") -> None:
    """The stored measurements and a conv_probe.py sweep's two runs in `folder` (STEM_plain.json,
    STEM_benchmark.json) into one table. sweep_cl: the sweep's layers channels-last, fp32, fp16 and
    bf16; sweep_fullres: image-to-image layers at full resolution, fp32 and bf16. A run replaces the
    stored calls of its own source."""
    source = stem.replace("_", "-")
    if stem.startswith("models"):  # networks (conv_probe.py models): one source each
        add_models(folder, stem)
        return
    path = os.path.join(ROOT, "benchmarks", "results", "estimate_conv_probe_h200.json")
    with open(path, encoding="utf-8") as handle:
        stored = json.load(handle)
    header = {k: stored[k] for k in ("torch", "cudnn", "gpu", "total")}
    calls = [{"key": stored["keys"][key], "source": stored["sources"][source_index], "mode": "benchmark" if bench else "plain",
              "step": step, "workspaces": spaces, "free": free << 20}
             for key, source_index, bench, step, spaces, free in stored["calls"] if stored["sources"][source_index] != source]
    gpu = ""
    for mode in ("plain", "benchmark"):
        with open(os.path.join(folder, f"{stem}_{mode}.json"), encoding="utf-8") as handle:
            sweep = json.load(handle)
        gpu = sweep["gpu"]
        # A tensor of one channel or one pixel is both layouts: its key names none, and the stored
        # measurement of that key stays as it was.
        calls += [call for call in ({**reduced(c, source, 0), "mode": mode} for c in sweep["sweep"] if "events" in c)
                  if source != "sweep-cl" or call["key"].endswith(" cl")]
    about = stored["about"].split("; per cuDNN call")[0]
    if source not in about:
        what = {"sweep-cl": "channels-last layers", "sweep-fullres": "full-resolution image-to-image layers"}[source]
        about += f"; {source} ({what}) on {gpu} ({time.strftime('%Y-%m-%d')})"
    write(calls, header, about)


def add_models(folder: str, stem: str) -> None:
    """conv_probe.py's `models` runs (STEM_plain.json, STEM_benchmark.json) into the stored table: each
    network a source, replacing its stored calls."""
    path = os.path.join(ROOT, "benchmarks", "results", "estimate_conv_probe_h200.json")
    with open(path, encoding="utf-8") as handle:
        stored = json.load(handle)
    runs = {}
    for mode in ("plain", "benchmark"):
        with open(os.path.join(folder, f"{stem}_{mode}.json"), encoding="utf-8") as handle:
            runs[mode] = json.load(handle)
    names = {model["model"] for run in runs.values() for model in run["models"]}
    calls = [{"key": stored["keys"][key], "source": stored["sources"][source], "mode": "benchmark" if bench else "plain",
              "step": step, "workspaces": spaces, "free": free << 20}
             for key, source, bench, step, spaces, free in stored["calls"] if stored["sources"][source] not in names]
    for mode, run in runs.items():
        for model in run["models"]:
            for step, step_calls in enumerate(model.get("steps", [])):
                calls += [{**reduced(c, model["model"], step), "mode": mode} for c in step_calls]
    write(calls, {k: stored[k] for k in ("torch", "cudnn", "gpu", "total")}, stored["about"].split("; per cuDNN call")[0])


def check(folder: str) -> None:
    """The same networks measured on another GPU (h100_plain.json, h100_benchmark.json in `folder`):
    each call's workspace there, stored beside the table for the test that compares them."""
    out = {"calls": []}
    for mode in ("plain", "benchmark"):
        with open(os.path.join(folder, f"h100_{mode}.json"), encoding="utf-8") as handle:
            models = json.load(handle)
        out.update({k: models[k] for k in ("torch", "cudnn", "gpu", "total")})
        for model in models["models"]:
            seen = set()
            for call in model["steps"][0]:
                key = key_of(call)
                if mode == "benchmark" and key in seen:  # the trial: the first call of the key
                    continue
                seen.add(key)
                out["calls"].append([mode, model["model"], key, max(workspaces(call["events"]), default=0)])
    path = os.path.join(ROOT, "benchmarks", "results", "estimate_conv_probe_h100_check.json")
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(out, handle, separators=(",", ":"))


if __name__ == "__main__":
    if sys.argv[1] == "check":  # python conv_table.py check DIR: the H100 comparison
        check(sys.argv[2])
    elif sys.argv[1] == "add":  # python conv_table.py add DIR [STEM]: a sweep's two runs into the stored table
        add(sys.argv[2], *sys.argv[3:4])
    else:
        main(sys.argv[1])
