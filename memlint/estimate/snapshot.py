"""`memlint estimate --snapshot FILE`: the predicted allocations as the pickle that
`torch.cuda.memory._snapshot()` writes, for `torch.cuda._memory_viz` and the viewer at
https://pytorch.org/memory_viz (no torch here).

The allocations and frees of the fake run are replayed through the caching-allocator model
(`allocator`): its addresses, segments and blocks are the model's, not a real GPU's. Each
allocation's one stack frame names its phase and category ("step 1 forward: activations").
"""

from __future__ import annotations

import pickle

from memlint.estimate.allocator import Allocator
from memlint.estimate.summary import CUBLAS, EMPTY_CACHE, LABELS, final_categories, with_workspaces


def build(events: list, phases: list[str], workspace: int, workspace_at: list[int] | None = None) -> dict:
    """`events`, `phases`, `workspace` and `workspace_at` as for `summary.summarize`."""
    trace: list = []
    model = Allocator(trace=trace)
    final = final_categories(events)
    for index, (sign, key, nbytes, category, phase) in with_workspaces(events, workspace, workspace_at):
        if category == CUBLAS:
            model.malloc(key, nbytes, LABELS[CUBLAS])
        elif sign == EMPTY_CACHE:
            model.empty_cache()
        elif sign < 0:
            model.free(key)
        elif sign > 0:
            model.malloc(key, nbytes, f"{phases[phase]}: {LABELS.get(final.get(index, category), category)}")
    notes = {entry["addr"]: entry["frames"] for entry in trace if entry["action"] == "alloc"}
    segments = []
    for head in model.segments:
        blocks, block = [], head
        while block is not None:
            blocks.append({"address": block.start, "size": block.size, "requested_size": block.size,
                           "state": "inactive" if block.free else "active_allocated",
                           "frames": [] if block.free else notes.get(block.start, [])})
            block = block.next
        total = sum(b["size"] for b in blocks)
        allocated = sum(b["size"] for b in blocks if b["state"] == "active_allocated")
        segments.append({"device": 0, "address": head.start, "total_size": total, "allocated_size": allocated,
                         "active_size": allocated, "requested_size": allocated, "stream": 0,
                         "segment_type": "small" if head.small else "large", "segment_pool_id": (0, 0),
                         "is_expandable": False, "frames": [], "blocks": blocks})
    return {"segments": segments, "device_traces": [trace], "allocator_settings": {}}


def write(snapshot: dict, filename: str) -> None:
    with open(filename, "wb") as handle:
        pickle.dump(snapshot, handle)
