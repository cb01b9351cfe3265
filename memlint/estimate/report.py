"""The prediction for people (text) and for CI (json, github, sarif); no torch."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TextIO

from memlint import __version__
from memlint.estimate import TESTED_TORCH
from memlint.estimate.scalars import DESCRIPTION
from memlint.estimate.sizes import in_unit, unit_for

RULE = "MLE001"
BASELINE_RULE = "MLE002"


# A training forward keeps at least the inputs of its matmuls for backward: 512 B a tensor on
# the GPU, kilobytes for any real layer. Less than both bounds means the step that ran was not
# the program's (an empty batch, a slice cut short), and its "fits" would be wrong.
ACTIVATIONS_FLOOR = 64 * 1024
ACTIVATIONS_PER_PARAMETER_BYTE = 1 / 10_000


def _size(result: dict):
    """The report's one size format (the budget's too), its unit chosen by the prediction."""
    unit = unit_for(max(result["peak_reserved"], result["peak_allocated"]))
    return lambda n: in_unit(n, unit)


def refusal(result: dict) -> str:
    """Why the run cannot be right, or ''."""
    human = _size(result)
    if result.get("empty_input"):
        return (f"refused: the model was called with an input of shape {result['empty_input']} (a zero-sized "
                "dimension); a run on an empty batch says nothing of the real one")
    params = result["breakdown"].get("parameters", 0)
    activations = result.get("training_activations", ACTIVATIONS_FLOOR)
    if result["steps_run"] and activations < min(ACTIVATIONS_FLOOR, params * ACTIVATIONS_PER_PARAMETER_BYTE):
        return (f"refused: the training forward kept {human(activations)} of activations for {human(params)} of "
                "parameters, below any plausible size (64 KiB and 1/10,000 of the parameters): the step that "
                "ran cannot be the program's")
    return ""


def lower_bound(result: dict) -> str:
    """Why the predicted readings are only a lower bound of the GPU's, or ''."""
    unmeasured = (result.get("kernel_side") or {}).get("autotuning_unmeasured")
    return (f"cudnn.benchmark autotunes {unmeasured} convolution shape(s) never measured on this GPU: their trial "
            "workspaces (up to the free memory) are not in the predicted readings" if unmeasured else "")


def verdict(result: dict, budget: int | None) -> tuple[int, str]:
    """(exit code, sentence). The gate compares the predicted reserved peak: what the
    caching allocator must get from the driver, which is what runs out first."""
    # cudnn.benchmark's trial workspaces are sized to the free memory: they raise the readings, not the need
    need = max(result.get("peak_reserved_without_autotuning", result["peak_reserved"]),
               result.get("peak_allocated_without_autotuning", result["peak_allocated"]))
    if result.get("some_ranks"):  # the job fits when its fullest rank does
        need = max(need, result["some_ranks"]["peak_reserved"], result["some_ranks"]["peak_allocated"])
    human = _size(result)
    refused = refusal(result)
    if refused:
        return 2, refused
    if result.get("stopped") and not result["steps_run"]:
        if budget is not None and need > budget:
            return 1, f"does not fit even before the first step: {human(need)} > {human(budget)}"
        return 2, "no training step ran fake: nothing to compare"
    if budget is None:
        return 0, ""
    margin = budget - need
    if margin < 0:
        return 1, f"does NOT fit: needs {human(need)} reserved, {human(-margin)} over the {human(budget)} budget"
    return 0, f"fits: {human(need)} reserved of {human(budget)}, margin {human(margin)} ({margin / budget:.0%})"


def _plain_lines(result: dict, budget: int | None, budget_label: str) -> list[str]:
    human = _size(result)
    whatif = f", what if {result['whatif']}" if result.get("whatif") else ""
    if result.get("world_size", 1) > 1:  # per rank: each GPU of the job holds this
        whatif += f", rank {result.get('rank', 0)} of {result['world_size']} (fake process group)"
    out = [f"memlint estimate {result['target']} (torch {result['torch']}, fake tensors, "
           f"{result['steps_run']} optimizer steps, {result['seconds']:.1f} s{whatif})"]
    if result.get("stopped"):
        out.append(result["stopped"])
        out.append("  (what follows is what ran before that)")
    # a convolution's autotuning that was never measured is missing from the readings predicted
    lower = "; at least: the autotuning of unmeasured convolutions is not in it" if lower_bound(result) else ""
    out.append(f"predicted peak allocated  {human(result['peak_allocated']):>12}   "
               f"torch.cuda.max_memory_allocated(), in {result['peak_phase']}{lower}")
    out.append(f"predicted peak reserved   {human(result['peak_reserved']):>12}   "
               f"torch.cuda.max_memory_reserved(), caching-allocator model (estimate){lower}")
    bare = result.get("peak_reserved_without_autotuning", result["peak_reserved"])
    if bare < result["peak_reserved"]:
        out.append(f"without autotuning trials {human(bare):>12}   reserved: what must fit (cudnn.benchmark's "
                   "trials take only what is free)")
    out.append("at the training peak:")
    for name, value in result["breakdown"].items():
        out.append(f"  {name:<28}{human(value):>12}")
    if result.get("eval_peak"):
        what = "the evaluation step"
        if result.get("eval_skipped"):
            what = (f"the evaluation: {result['eval_forwards']} forwards run, {result['eval_skipped']} more "
                    "answered from the last")
        out.append(f"eval step peak allocated  {human(result['eval_peak']):>12}   {what}, at its peak:")
        for name, value in result.get("eval_breakdown", {}).items():
            out.append(f"  {name:<28}{human(value):>12}")
    steps = result.get("steps", {})
    if len(steps) > 1:
        out.append("by step:  " + ",  ".join(f"step {k}: {human(v)}" for k, v in sorted(steps.items(), key=lambda kv: int(kv[0]))))
    phases = [(k, v) for k, v in result.get("phases", {}).items() if k.startswith("step 1 ") or k.startswith("step 2 ")]
    if phases:
        out.append("by phase: " + ",  ".join(f"{k}: {human(v)}" for k, v in phases))
    if result.get("modules"):
        out.append("top modules (step 1 forward: memory their forward leaves allocated, parameters):")
        for use in result["modules"][:5]:
            out.append(f"  {use['module']:<28}{human(use['forward_growth']):>12}  params {human(use['parameters'])}")
    some = result.get("some_ranks")
    if some:
        # DDP starts with all gradients in one bucket and rebuilds the buckets after the first step; on some
        # ranks the first bucket outlives the rebuild (held by the first all-reduce's work until NCCL releases it).
        out.append(f"on some ranks:            {human(some['peak_allocated']):>12} allocated, "
                   f"{human(some['peak_reserved'])} reserved: DDP's first-step bucket ({human(some['held'])}) still "
                   "held by its all-reduce when the buckets are rebuilt (1 of 2, 1 or 2 of 4 ranks measured)")
    if result.get("micro_steps_answered"):
        out.append(f"note: {result['micro_steps_answered']} gradient-accumulation micro-steps answered from the "
                   "second of their step (same shapes, same memory)")
    if result.get("compiled"):
        out.append(f"note: torch.compile ({', '.join(result['compiled'])}) ran as eager code: this is eager execution's "
                   "peak; a compiled run fuses elementwise work and recomputes some of it in the backward, so it "
                   "usually holds less")
    if result.get("whatif_note"):
        out.append(f"note: {result['whatif_note']}")
    out.extend(_kernel_lines(result.get("kernel_side") or {}, human))
    if result.get("autotuning_bounded_by_free_memory"):
        out.append(f"note: cudnn.benchmark's trial workspace is larger than the memory free at "
                   f"{', '.join(result['autotuning_bounded_by_free_memory'])}: cuDNN then tries only the plans that "
                   "fit, so the readings there are bounded by the free memory, not predicted")
    out.extend(_value_notes(result))
    version = ".".join(str(result.get("torch", "")).split("+")[0].split(".")[:2])
    if version and version not in TESTED_TORCH:
        out.append(f"note: torch {version} is not one memlint estimate was tested on ({', '.join(TESTED_TORCH)}); "
                   "it rests on private torch APIs, so check a number that matters on a GPU")
    code, sentence = verdict(result, budget)
    if sentence:
        out.append(f"{budget_label}: {sentence}" if budget is not None and code != 2 else sentence)
    return out


def _value_notes(result: dict) -> list[str]:
    """Where fake values became Python values, and how they were answered (at most 3 sites a kind)."""
    out = []
    for kind, description in DESCRIPTION.items():
        uses = [u for u in result.get("scalar_uses", []) if u["kind"] == kind]
        if not uses:
            continue
        count = sum(u["count"] for u in uses)
        answers = " / ".join(sorted({repr(u["answer"]) for u in uses if u["answer"] is not None}))
        sites = ", ".join(f"{u['site']} ({u['count']}x)" for u in uses[:3]) + (", ..." if len(uses) > 3 else "")
        out.append(f"note: {count} fake value(s) {description}{', answered ' + answers if answers else ''}: {sites}")
    return out


def _kernel_lines(kernel: dict, human: Callable[[int], str]) -> list[str]:
    """cuDNN's memory beside the tensors: named, with the bound it puts above the peak (sizes in the report's unit)."""
    lines = []
    measured = kernel.get("measured_on", "")
    known = kernel.get("conv_calls", 0) - kernel.get("conv_calls_unmeasured", 0)
    if measured and known:
        lines.append(f"  {'cuDNN conv workspaces':<28}{'in peak':>12}   transient, measured per call on {measured} "
                     f"(cuDNN 9.19) for {known} of {kernel['conv_calls']} convolution calls")
    if measured and kernel.get("conv_calls_unmeasured"):
        lines.append(f"  {'cuDNN conv workspaces':<28}{'~ ' + human(kernel.get('estimated_largest', 0)):>12}   "
                     f"an estimate, in the peak: the largest of {kernel['conv_calls_unmeasured']} calls never "
                     "measured, each from its nearest measured calls scaled to its tensors (tried on the measured "
                     "shapes, 7 to 8 calls in 10 come within 50%); not measured:")
        shown = kernel.get("unmeasured_examples", [])
        lines += [f"    {key}" for key in shown]
        if kernel.get("conv_unmeasured", 0) > len(shown):
            lines.append(f"    ... ({kernel['conv_unmeasured'] - len(shown)} more shapes)")
    if kernel.get("cudnn_benchmark"):
        if kernel.get("autotuning_largest"):
            lines.append(f"  {'cudnn.benchmark autotuning':<28}{human(kernel['autotuning_largest']):>12}   "
                         "the largest trial workspace (first call of a shape), in the peak readings; "
                         "sized to the free memory, so not in what must fit")
        if kernel.get("autotuning_unmeasured"):
            lines.append(f"  {'autotuning not measured':<28}{'<= free':>12}   {kernel['autotuning_unmeasured']} "
                         "convolution shapes never measured on this GPU: their trial workspaces (cuDNN's largest "
                         "plan, GiBs for some layers) are NOT in the peak above, which is a lower bound of the "
                         "GPU's readings; the fit does not depend on them")
    if kernel.get("cudnn_rnn_reserve"):
        rnn = kernel.get("rnn", "RNN")
        lines.append(f"  {'cuDNN RNN reserve space':<28}{human(kernel['cudnn_rnn_reserve']):>12}   "
                     f"kept by the fused {rnn} for backward (in the peak)")
        lines.append(f"  {'cuDNN RNN workspace':<28}{'~ ' + human(kernel.get('cudnn_rnn_workspace', 0)):>12}   "
                     "transient, in the peak; cuDNN picks it by shape (measured 0.5x to 1.5x this)")
    return ["kernel-side memory (cuDNN, beside the tensors):", *lines] if lines else []


def write(result: dict, fmt: str, stream: TextIO, budget: int | None, budget_label: str = "budget") -> int:
    fits, sentence = verdict(result, budget)
    code = fits
    comparison = result.get("baseline")  # --baseline: `baseline.compare`
    if comparison:
        code = 2 if 2 in (fits, comparison["exit"]) else max(fits, comparison["exit"])
    if fmt == "json":
        json.dump({**result, "budget": budget, "fits": None if budget is None else fits == 0,
                   "exit": code, "refused": refusal(result), "lower_bound": lower_bound(result)}, stream, indent=2)
        stream.write("\n")
    elif fmt == "github":
        from memlint.formats.github import command

        for line in _lines(result, budget, budget_label):
            stream.write(line + "\n")
        if result.get("stopped"):
            stream.write(command("warning", result["stopped"], title="memlint estimate") + "\n")
        if lower_bound(result):
            stream.write(command("warning", "the predicted peak is a lower bound: " + lower_bound(result),
                                 title="memlint estimate") + "\n")
        if comparison and comparison["exit"]:
            stream.write(command("error", comparison["reason"], file=result.get("file") or None,
                                 line=result.get("line") or None, title="memlint estimate --baseline") + "\n")
        if fits == 1 or refusal(result):
            stream.write(command("error", f"{budget_label}: {sentence}" if fits == 1 else sentence,
                                 file=result.get("file") or None, line=result.get("line") or None,
                                 title="memlint estimate") + "\n")
    elif fmt == "sarif":
        json.dump(_sarif(result, fits, sentence, budget_label), stream, indent=2)
        stream.write("\n")
    else:
        for line in _lines(result, budget, budget_label):
            stream.write(line + "\n")
    return code


def _lines(result: dict, budget: int | None, budget_label: str) -> list[str]:
    out = _plain_lines(result, budget, budget_label)
    if result.get("baseline"):
        from memlint.estimate import baseline

        out.extend(baseline.lines(result["baseline"]))
    return out


def _sarif(result: dict, code: int, sentence: str, budget_label: str) -> dict:
    from memlint.formats.common import INFORMATION_URI

    results = []
    comparison = result.get("baseline")
    if comparison and comparison["exit"]:
        results.append({"ruleId": BASELINE_RULE, "level": "error", "message": {"text": comparison["reason"]}})
        if result.get("file"):
            results[-1]["locations"] = _locations(result)
    if code == 1 or result.get("stopped"):
        message = f"{budget_label}: {sentence}" if code == 1 else result["stopped"]
        entry: dict = {"ruleId": RULE, "level": "error" if code == 1 else "warning", "message": {"text": message}}
        if result.get("file"):
            entry["locations"] = _locations(result)
        results.append(entry)
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "memlint estimate", "version": __version__, "informationUri": INFORMATION_URI, "rules": [{
                                    "id": RULE, "name": "projected-gpu-oom",
                                    "shortDescription": {"text": "The training step's predicted peak GPU memory does not fit"}},
                                    {"id": BASELINE_RULE, "name": "gpu-memory-regression",
                                     "shortDescription": {"text": "The predicted peak GPU memory grew past the allowed "
                                                                  "increase over the base"}}]}},
            "results": results,
            "properties": {"peak_allocated": result["peak_allocated"], "peak_reserved": result["peak_reserved"]},
        }],
    }


def _locations(result: dict) -> list[dict]:
    return [{"physicalLocation": {"artifactLocation": {"uri": result["file"]},
                                  "region": {"startLine": max(1, result.get("line") or 1)}}}]
