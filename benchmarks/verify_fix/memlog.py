"""Each script's own ground truth: torch.cuda.memory_allocated() (and the step's peak) after
every step, appended as JSON lines to $MEMLOG, one `pid` per run (memlint verify --compare-fix
runs the command twice: as written, then fixed)."""

import json
import os

import torch


def log(step: int) -> None:
    path = os.environ.get("MEMLOG")
    if not path or not torch.cuda.is_available():
        return
    torch.cuda.synchronize()
    record = {"pid": os.getpid(), "step": step, "allocated": torch.cuda.memory_allocated(),
              "peak": torch.cuda.max_memory_allocated()}
    torch.cuda.reset_peak_memory_stats()
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(json.dumps(record) + "\n")
