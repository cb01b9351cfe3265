"""GPU ground truth, loaded by every Python process of a measured run (PYTHONPATH).

In a process that has put something on the GPU, after the optimizer step number
$MEASURE_STEPS (any optimizer: a GAN's two count as two, as `memlint estimate --steps`
counts them) it writes torch.cuda.max_memory_allocated() / max_memory_reserved() to
$MEASURE_OUT (.rankN under torchrun) and ends the process. A program that ends before
writes what it reached at exit, with the steps it ran. `reset_peak_memory_stats` is made a
no-op (a benchmark script resets it between phases; the peak of the whole run is wanted).
With MEASURE_HISTORY=1 it also records the allocation history and dumps a snapshot next to
the numbers (.pickle), for peak_owners.py: in torchrun's ranks (not in its launcher), or in a
single process with MEASURE_HISTORY=single. With MEASURE_NO_CUDNN_BENCHMARK=1 the program's
`torch.backends.cudnn.benchmark = True` is ignored (what the run takes without autotuning);
with MEASURE_BIGGEST=1 the largest allocations of the run are written with the numbers
("biggest": size, the innermost frames), from the allocator's history.
"""
import os

if os.environ.get("MEASURE_OUT"):
    import atexit
    import json
    import sys

    import torch
    from torch.optim.optimizer import register_optimizer_step_post_hook

    _state = {"steps": 0, "written": False, "pid": os.getpid()}
    _target = int(os.environ.get("MEASURE_STEPS", "2"))
    _path = os.environ["MEASURE_OUT"] + (f".rank{os.environ['RANK']}" if "RANK" in os.environ else "")
    torch.cuda.reset_peak_memory_stats = lambda *a, **k: None
    if os.environ.get("MEASURE_NO_CUDNN_BENCHMARK") == "1":
        type(torch.backends.cudnn).benchmark = property(lambda self: False, lambda self, value: None)
    _biggest = os.environ.get("MEASURE_BIGGEST") == "1"
    if _biggest:
        torch.cuda.memory._record_memory_history(max_entries=400000, stacks="python")
    _history = (os.environ.get("MEASURE_HISTORY") == "1" and "RANK" in os.environ  # not in torchrun's launcher
                or os.environ.get("MEASURE_HISTORY") == "single")
    if _history:
        torch.cuda.memory._record_memory_history(max_entries=200000, stacks="python")

    def _write(finished: bool) -> None:
        if _state["written"] or os.getpid() != _state["pid"] or not torch.cuda.is_initialized():
            return
        _state["written"] = True
        torch.cuda.synchronize()
        with open(_path, "w", encoding="utf-8") as handle:
            json.dump({"allocated": torch.cuda.max_memory_allocated(), "reserved": torch.cuda.max_memory_reserved(),
                       "steps": _state["steps"], "reached_steps": finished, "rank": os.environ.get("RANK"),
                       "torch": torch.__version__, "gpu": torch.cuda.get_device_name(),
                       **({"biggest": _largest()} if _biggest else {})}, handle)
        if _history:
            torch.cuda.memory._dump_snapshot(_path + ".pickle")

    def _largest(count: int = 8) -> list:
        events = [e for trace in torch.cuda.memory._snapshot()["device_traces"] for e in trace if e["action"] == "alloc"]
        events.sort(key=lambda e: -e["size"])
        return [{"size": e["size"], "frames": [f"{f['filename'].split('/')[-1]}:{f['line']} {f['name']}"
                                               for f in e.get("frames", [])[:6]]} for e in events[:count]]

    def _after_step(optimizer, args, kwargs) -> None:
        _state["steps"] += 1
        if _state["steps"] >= _target:
            _write(True)
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(0)

    register_optimizer_step_post_hook(_after_step)
    atexit.register(_write, False)
