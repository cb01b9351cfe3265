"""From a tracked run to the numbers of the report (plain data, JSON-ready; no torch)."""

from __future__ import annotations

from memlint.estimate.allocator import Allocator

# cuDNN's convolution workspaces in the events (`cudnn_conv`): their categories, and the sign of
# the event where PyTorch empties the cache after an autotuning trial.
WORKSPACE = "cuDNN workspace"
AUTOTUNING = "cuDNN autotuning"
EMPTY_CACHE = 2

# cuBLAS takes its workspace through the caching allocator at the first matmul
# of a (handle, stream) and keeps it (torch >= 2.3 defaults: 4096 KiB x 8 on sm90,
# 4096 KiB x 2 + 16 KiB x 8 on earlier GPUs; CUBLAS_WORKSPACE_CONFIG changes it).
# Handles are per thread, and autograd runs a CUDA backward on its own device
# thread: a training step with matmuls in backward holds two (measured: 64 MiB
# on H100/H200 for any small model trained with a Linear layer).
# Each is allocated where its handle's first matmul runs (`workspace_at`): the backward one often
# lands in a block the forward freed, and the reserved memory follows from where it sits.
CUBLAS_WORKSPACE = {"sm90": 32 << 20, "other": (4096 << 10) * 2 + (16 << 10) * 8}
CUBLAS = "cuBLAS workspace"
CATEGORIES = ["Parameter", "Buffer", "Gradient", "Optstate", "Optimizer temporaries", "Input", "Activation", "Autocast cache", "Temp", "Communication buffers", WORKSPACE, AUTOTUNING, CUBLAS, "Other"]
LABELS = {"Parameter": "parameters", "Buffer": "buffers", "Gradient": "gradients", "Optstate": "optimizer state", "Optimizer temporaries": "optimizer-step temporaries",
          "Input": "inputs (batch)", "Activation": "activations", "Autocast cache": "autocast cast cache",
          "Temp": "backward temporaries", "Communication buffers": "DDP gradient buckets",
          WORKSPACE: "cuDNN conv workspace", AUTOTUNING: "cuDNN autotuning trial", CUBLAS: "cuBLAS workspace (assumed)",
          "Other": "other"}


def workspace_allocations(workspace: int, workspace_at: list[int]) -> list[tuple[int, int]]:
    """(event index, bytes) of the cuBLAS workspaces, `workspace` bytes in all: one per handle where its first
    matmul's outputs end (`workspace_at`), or all at the start (-1) where those are not known."""
    if not workspace:
        return []
    if not workspace_at:
        return [(-1, workspace)]
    return [(index, workspace // len(workspace_at)) for index in sorted(workspace_at)]


def with_workspaces(events: list, workspace: int, workspace_at: list[int] | None):
    """(index, event) of `events`, with the cuBLAS workspaces' allocations (index None) where they are taken."""
    pending = workspace_allocations(workspace, workspace_at or [])
    for index, event in enumerate(events):
        while pending and pending[0][0] <= index:
            yield None, (1, -10 - len(pending), pending.pop(0)[1], CUBLAS, event[4])
        yield index, event


def summarize(events: list, phases: list[str], modules: list[dict], workspace: int, extra: dict,
              streams: dict[int, int] | None = None, linger: int = 0, workspace_at: list[int] | None = None) -> dict:
    """`events` as `tracker.Record.events`, `phases` their labels, `streams` the side stream of the
    allocations (event index -> stream) made off the default one (`tracker.Record.streams`);
    `linger` bytes allocated once more when step 2 begins and never freed (DDP's first bucket
    on the ranks that still hold it: `distributed.some_ranks`); `workspace` the cuBLAS workspaces'
    bytes, allocated as `workspace_allocations` says."""
    streams = streams or {}
    model = Allocator()
    live_cat: dict[int, str] = {}
    totals = dict.fromkeys(CATEGORIES, 0)
    best = {"allocated": -1}
    best_eval = {"allocated": -1, "totals": {}}
    per_phase: dict[str, int] = {}
    phase_totals: dict[str, dict] = {}
    activations = 0  # the most the training steps' forwards held at once (the sanity check's)
    final = final_categories(events)
    capacity = extra.get("capacity") or 0
    bounded = []  # autotuning trials that the free memory would cut (phase labels)
    bare = Allocator()  # the same run without the autotuning trials, which shrink to the free memory
    # A forward with gradients off that runs before the last step ends (a frozen encoder's inside each
    # step, a validation before the first) is in the GPU's max_memory_allocated over the steps: the peak
    # counts it, named by the step it precedes. One after the last step is reported on its own line.
    within: dict[int, str] = {}
    following = None
    for index in range(len(phases) - 1, -1, -1):
        if phases[index].startswith("step "):
            following = phases[index].split()[1]
        elif phases[index] == "eval" and following is not None:
            within[index] = f"eval before step {following}"
    for index, (sign, key, nbytes, category, phase) in with_workspaces(events, workspace, workspace_at):
        if linger and phases[phase].startswith("step 2 "):
            model.malloc(-2, linger)
            bare.malloc(-2, linger)
            linger = 0
        if sign == EMPTY_CACHE:
            model.empty_cache()
            bare.empty_cache()
            continue
        if sign > 0 and category != AUTOTUNING:
            bare.malloc(key, nbytes, stream=streams.get(index, 0))
        elif sign < 0:
            bare.free(key)
        if sign > 0 and category == AUTOTUNING and capacity:
            # PyTorch drops the plans whose workspace exceeds the free memory: the trial is at most that
            available = max(capacity - model.reserved, model.largest_free())
            if nbytes > available:
                nbytes = max(available, 0)
                bounded.append(phases[phase])
        if sign < 0 and key in live_cat:
            model.free(key)
            totals[live_cat.pop(key)] -= nbytes
        if sign <= 0:  # a free, or a re-categorization (already applied from the allocation on)
            continue
        model.malloc(key, nbytes, stream=streams.get(index, 0))
        category = final.get(index, category)
        live_cat[key] = category
        totals[category] = totals.get(category, 0) + nbytes
        label = phases[phase]
        if model.allocated > per_phase.get(label, -1):
            per_phase[label] = model.allocated
            phase_totals[label] = dict(totals)
        if label.startswith("step "):
            activations = max(activations, totals["Activation"])
        if label == "eval" and model.allocated > best_eval["allocated"]:
            best_eval = {"allocated": model.allocated, "totals": dict(totals)}
        if (label != "eval" or phase in within) and model.allocated > best["allocated"]:
            best = {"allocated": model.allocated, "phase": within.get(phase, label), "totals": dict(totals)}
    if best["allocated"] < 0:
        best = {"allocated": model.allocated, "phase": "setup", "totals": dict(totals)}
    breakdown = _breakdown(best)
    steps: dict[str, int] = {}
    for label, value in per_phase.items():
        if label.startswith("step "):
            step = label.split()[1]
            steps[step] = max(steps.get(step, 0), value)
    return {
        "peak_allocated": best["allocated"],
        "peak_reserved": model.peak_reserved,
        "peak_phase": best["phase"],
        "breakdown": breakdown,
        "phases": per_phase,
        "phase_breakdown": {label: _breakdown({"allocated": per_phase[label], "totals": phase_totals[label]})
                            for label in per_phase},
        "steps": steps,
        "eval_peak": per_phase.get("eval"),
        "eval_breakdown": _breakdown(best_eval) if best_eval["allocated"] > 0 else {},
        "modules": modules,
        "training_activations": activations,
        "autotuning_bounded_by_free_memory": sorted(set(bounded)),
        # what must fit: cudnn.benchmark's trials take what is free and never make a run fail
        "peak_allocated_without_autotuning": bare.peak_allocated,
        "peak_reserved_without_autotuning": bare.peak_reserved,
        **extra,
    }


def _breakdown(best: dict) -> dict[str, int]:
    at_peak = best["totals"]
    breakdown = {LABELS.get(c, c): at_peak.get(c, 0) for c in CATEGORIES if at_peak.get(c, 0)}
    rounding = best["allocated"] - sum(breakdown.values())
    if rounding:
        breakdown["allocator block rounding"] = rounding
    return breakdown


def final_categories(events: list) -> dict[int, str]:
    """For each allocation (its index), the category it ends up in: a tensor is known for
    what it is only later (a gradient is a backward temporary until its hook runs, Adam's
    state an optimizer-step allocation until the step returns), and it is that all along."""
    open_at: dict[int, int] = {}
    final: dict[int, str] = {}
    for index, (sign, key, _, category, _) in enumerate(events):
        if sign == EMPTY_CACHE:
            continue
        if sign > 0:
            open_at[key] = index
        elif sign < 0:
            open_at.pop(key, None)
        elif key in open_at:
            final[open_at[key]] = category
    return final


def top_modules(uses: list[dict], limit: int = 6) -> list[dict]:
    """The modules to list, at the depth where the memory sits. `uses`: every module whose forward
    ran (dicts with "module", a dotted name from the root, and "forward_growth"). Containers that
    are never called (`nn.ModuleDict`, `nn.ModuleList`) have no entry: their members stand in their
    place. One entry holding most of the memory is replaced by its own members."""
    by_name = {u["module"]: u for u in uses}
    root = min(by_name, key=lambda n: n.count("."), default=None)
    if root is None:
        return []

    def members(name: str) -> list[dict]:
        """The topmost recorded modules below `name`."""
        below = [n for n in by_name if n.startswith(name + ".")]
        return [by_name[n] for n in below
                if not any(n.startswith(other + ".") for other in below if other != n)]

    shown = members(root)
    for _ in range(8):  # a chain of wrappers (Sequential in Sequential) is descended a few levels at most
        total = sum(max(u["forward_growth"], 0) for u in shown)
        biggest = max(shown, key=lambda u: u["forward_growth"], default=None)
        inner = members(biggest["module"]) if biggest else []
        if not inner or total <= 0 or biggest["forward_growth"] <= total / 2:
            break
        shown = [u for u in shown if u is not biggest] + inner
    return sorted(shown, key=lambda u: -u["forward_growth"])[:limit]


def is_hopper(gpu_label: str) -> bool:
    return any(name in gpu_label.lower() for name in ("h100", "h200", "gh200", "h800"))


def workspace_for(gpu_label: str, matmuls: bool, backward_matmuls: bool = False) -> int:
    if not matmuls:
        return 0
    return CUBLAS_WORKSPACE["sm90" if is_hopper(gpu_label) else "other"] * (2 if backward_matmuls else 1)
