"""The blocks live at the peak of a configuration, measured on the GPU or predicted, to see
what a prediction misses (measure_gpu.py's configurations, each in a process of its own).

    python peak_blocks.py gpu OUT.json CONFIG ...        # on the GPU machine
    python peak_blocks.py predict OUT.json CONFIG ...    # here: memlint estimate's snapshot

CONFIG is a label of measure_gpu.py (`gpt:bf16`, `lightning_module.py`, `bert_trainer.py --bf16`).
On the GPU the allocator's history is recorded over the 2 steps (Python frames); the trace is
replayed to its peak of allocated bytes, and the live blocks there (1 MiB and more; the others
counted) are written with their innermost frames, with the allocations and frees just before the
peak. Written for the in-house configurations' misses (benchmarks/results/estimate_peak_blocks_h100.json).
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import measure_gpu  # noqa: E402 - beside this file

RECENT = 40  # events kept before the peak


def _frames(event: dict) -> list[str]:
    out = []
    for frame in event.get("frames", []):
        name = frame["filename"]
        if name.endswith(".py") or name.startswith("memlint"):
            out.append(f"{name.split('site-packages/')[-1].split('/programs/')[-1]}:{frame['line']} {frame['name']}")
    return out[:6]


def at_peak(trace: list[dict]) -> dict:
    """The peak of allocated bytes in an allocator trace: the live blocks there and the events before."""
    live: dict[int, dict] = {}
    current = peak = 0
    at, peak_index = [], 0
    for index, event in enumerate(trace):
        if event["action"] == "alloc":
            live[event["addr"]] = event
            current += event["size"]
            if current > peak:
                peak, at, peak_index = current, list(live.values()), index
        elif event["action"] == "free_completed" and event["addr"] in live:
            current -= live.pop(event["addr"])["size"]
    recent = [{"action": e["action"], "mib": round(e["size"] / 2**20, 2), "frames": _frames(e)[:2]}
              for e in trace[max(0, peak_index - RECENT):peak_index + 1] if e["action"] in ("alloc", "free_completed")]
    large = [e for e in sorted(at, key=lambda e: -e["size"]) if e["size"] >= 2**20]
    blocks = [{"mib": round(e["size"] / 2**20, 2), "frames": _frames(e)} for e in large]
    small = [e["size"] for e in at if e["size"] < 2**20]
    return {"peak_mib": round(peak / 2**20, 1), "blocks": blocks, "recent": recent,
            "small_blocks": {"count": len(small), "mib": round(sum(small) / 2**20, 1)}}


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _op_log_class():
    import torch
    from torch.utils._python_dispatch import TorchDispatchMode

    class OpLog(TorchDispatchMode):
        """Each op's name with the allocated bytes after it and the running maximum."""

        def __init__(self):
            super().__init__()
            self.log = []

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            out = func(*args, **(kwargs or {}))
            shapes = [tuple(a.shape) for a in args if isinstance(a, torch.Tensor)][:3]
            self.log.append((str(func), shapes, torch.cuda.memory_allocated(), torch.cuda.max_memory_allocated()))
            return out

        def around_peak(self, before: int = 30, after: int = 5) -> list:
            final = self.log[-1][3] if self.log else 0
            at = next((i for i, entry in enumerate(self.log) if entry[3] == final), 0)
            return [{"op": op, "shapes": shapes, "allocated_mib": round(a / 2**20, 1), "max_mib": round(m / 2**20, 1)}
                    for op, shapes, a, m in self.log[max(0, at - before):at + after]]

    return OpLog


def _OpLog():
    return _op_log_class()()


def _child(mode: str, kind: str, spec: list[str]) -> dict:
    if mode == "gpu":
        import torch

        # PEAK_BLOCKS_STACKS=0: no frames (Python frames broke a checkpointed recomputation on torch
        # 2.11); the ops around the peak are logged instead.
        stacks = os.environ.get("PEAK_BLOCKS_STACKS", "1") == "1"
        torch.cuda.memory._record_memory_history(max_entries=1_000_000, context="all" if stacks else None,
                                                 stacks="python")
        ops = _OpLog() if not stacks else None
        with ops or _nothing():
            real = measure_gpu._real_factory(spec[0]) if kind == "factory" else measure_gpu._real_command(*spec)
        snapshot = torch.cuda.memory._snapshot()
        trace = max(snapshot["device_traces"], key=len)
        return {"measured": real, **at_peak(trace), **({"ops": ops.around_peak()} if ops else {})}
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "snapshot.pickle")
        sys.path.insert(0, measure_gpu.ROOT)
        os.chdir(measure_gpu.PROGRAMS)
        if kind == "factory":
            from memlint.estimate.predict import predict_factory

            result = predict_factory(spec[0], steps=measure_gpu.STEPS, eval_step=False, snapshot_file=path)
        else:
            from memlint.estimate import program

            os.environ["BENCH_STEPS"] = str(measure_gpu.STEPS + 1)
            result = program.run([sys.executable, *spec], ("NVIDIA H100 80GB HBM3", 80 << 30), measure_gpu.STEPS,
                                 timeout=300, snapshot_file=path)
        with open(path, "rb") as handle:
            snapshot = pickle.load(handle)
    return {"predicted": {k: result.get(k) for k in ("peak_allocated", "peak_reserved", "peak_phase")},
            **at_peak(snapshot["device_traces"][0])}


def main(argv: list[str]) -> int:
    if argv[0] == "--child":
        mode, kind, spec = argv[1], argv[2], argv[3:]
        print("RESULT " + json.dumps(_child(mode, kind, spec)), flush=True)
        return 0
    mode, out, configs = argv[0], argv[1], argv[2:]
    results = {}
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (measure_gpu.ROOT, measure_gpu.PROGRAMS,
                                                                   os.environ.get("PYTHONPATH")) if p))
    for config in configs:
        spec = config.split()
        kind = "command" if spec[0].endswith(".py") else "factory"
        done = subprocess.run([sys.executable, __file__, "--child", mode, kind, *spec], capture_output=True, text=True,
                              env=env, cwd=measure_gpu.PROGRAMS, timeout=400)
        lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
        results[config] = json.loads(lines[-1][7:]) if lines else {"error": (done.stderr or done.stdout)[-2000:]}
        print(config, results[config].get("peak_mib", results[config].get("error")), flush=True)
        with open(out, "w", encoding="utf-8") as handle:
            json.dump(results, handle, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
