from __future__ import annotations

import libcst as cst

from typing import TYPE_CHECKING

from memlint.analysis.flow.consumers import consumed_after, joined_by_numpy
from memlint.analysis.flow.provenance import unplaced
from memlint.analysis.syntax.expressions import code, literal_parts
from memlint.analysis.regions.grad import Grad
from memlint.models import Applicability, Severity
from memlint.analysis.regions.loops import Store
from memlint.rules.base import FixSpec, StoreRule, keep_fix, off_device

if TYPE_CHECKING:
    from memlint.analysis.model import SemanticModel


class EvalOutputsOnDevice(StoreRule):
    code = "ML005"
    name = "eval-outputs-on-device"
    severity = Severity.WARNING
    severity_otherwise = "an error where the code shows 0.25 MiB or more kept per batch"
    summary = "Evaluation outputs are collected across batches on the device"
    fix_applicability = Applicability.UNSAFE
    # (a store of a callee of another file, `store.add(out)`: the calls that collect most often)
    needles = (
        ("for ", "while ", "_step", "_batch_", "forward", "compute_loss", "Engine"),
        ("append", "extend", "cat", "+=", "] =", "add(", "update(", "process(", "record(", "collect(", "push("),
    )
    what = """
Checks for tensors collected across evaluation batches (outputs, logits,
predictions, labels moved to the device) into a container that outlives the
loop, without `.cpu()`. Per-batch scalar losses and metrics and host values are
not reported (a full reduction, a loss backwarded alone, `.item()`,
`.cpu().numpy()`, or what a function, method or module of the project returns
where it returns only such values: `{"mse": loss.item()}`, and an entry of a
mapping filled with one: `out.update({"acc1": acc1})`), whatever they are named,
while what a function or method of another file of the project returns from
its model is on the device: `scores = ranker.scores(feats)` is the head's
output. Nor are the batches a metric's `update` gathers in its list states (a torchmetrics
metric, or one of the project's, placed or not: `Accuracy().to(device)`), which
it keeps by design until `reset()` (whether it is reset is ML020's question),
nor is the sequence an autoregressive loop generates
(`input = torch.cat([input, token])` where the model runs on `input`), nor a
list that NumPy joins after the loop (`np.concatenate(encoded)`: NumPy refuses
a CUDA tensor, so what it joins is on the host), or that torch joins and reads
with `.numpy()` at once (`torch.cat(results["score"]).numpy()`: `Tensor.numpy()`
refuses a CUDA tensor too, and the join keeps its inputs' device), nor the parts of a batch that
a step moves to the device in place (`data[i] = data[i].cuda()` in a loop over
`range(len(data))` inside the loop that runs the model on `data`: the loader
makes a new batch for every step, while a list of batches built before the
loop keeps them, and is reported), nor a list whose items the
function reads as text (`[t.strip() for t in truths]`: a method no tensor has;
`ref.split("\\n")`, a separator no tensor's `split` takes), or hands to a function
of its file or of another file of the project that does (`for ref, hyp in
zip(refs, hyps)`), whatever the entry they came from (a batch's list of target
sentences), nor the outputs of a model made on the host and never moved, run on host tensors (a
`from_pretrained` load without `device_map`, also where a function of the file
returns it, or every call hands it to the evaluation: `clip_models=load_clip()`).
A training step that keeps a detached output (`self.logits.append(
logits.detach())`) is reported too: the graph is gone, the tensor of batch
size stays on the device every step. So is an evaluation loop run with grad
that collects its outputs, which keep their graphs too (in a training step,
retained-graph, ML001, reports such a store). So is an output handed to a
method that appends what it is given to the object's lists, by that method's
definition in this file or another file of the project (`evaluator.add(out)`
where `add` does `self.preds.append(preds)`), and so is what a method with no
loop of its own keeps where another file of the project calls it once per
batch under `torch.no_grad()` (`evaluator.eval_step(batch)`); not where the method writes it
into a window of a tensor allocated once (`self.bank[start:end] = idxs`, the
bank made by `torch.zeros` or registered with `register_buffer`), which copies
it into fixed storage. Each store is its own finding:
logits and labels collected side by side are two. A loop over batches that
runs its models only through functions of its file that turn grad off
(`ref = self.compute_reference(batch)`, whose forward is under `no_grad`) is
an inference loop too, and what such a function returns is where its model's
output is (gathering across processes keeps it there). A step's return that
the framework keeps on the device counts as collected too: Lightning before
2.0 keeps every `validation_step` (`test_step`, `training_step`) return for an
overridden `validation_epoch_end` (`test_epoch_end`, `training_epoch_end`).

Where the code shows the collected tensor's shape and dtype (literal sizes,
a loader written out, an `nn.Sequential` of `Linear` layers), the message
says how much device memory each batch adds, and the severity follows it: an
error from 0.25 MiB per batch on, a warning below.
"""
    why = """
Every batch adds its outputs to device memory, so memory grows with the size
of the evaluation set, not the batch: outputs of 8×Linear(1024), batch 256,
kept on the GPU under `no_grad` grew by 1 MiB per batch; with
`.detach().cpu()` they did not grow (pytorch-forecasting PR 2228).
"""
    example = """
preds = []
with torch.no_grad():
    for x, y in val_loader:
        preds.append(model(x))
"""
    use_instead = """
preds = []
with torch.no_grad():
    for x, y in val_loader:
        preds.append(model(x).detach().cpu())
"""

    def check_store(self, store: Store) -> None:
        model = self.model
        statement = store.statement
        # a callee of this file keeps it (`evaluator.add(out)`): how is written in the callee
        inner = model.loops.store_of(store.keep) if store.kind == "update" and store.keep is not None else None
        if (inner.kind if inner is not None else store.kind) not in ("append", "subscript", "concat", "returned") and not store.grows:
            return  # `confmat += ...` keeps one fixed-size tensor, it does not grow
        if store.kind == "returned" and not self._kept_on_device(statement):
            return  # the framework moves what it keeps to the CPU (`Trainer.predict`)
        if model.provenance.items_read_as_text(store.container, statement):
            return  # the function reads what it collected as text (`t.strip()`): strings, no tensor
        written = inner if inner is not None else store  # where the value is stored: here or in the callee
        if store.kind == "update" and any(
            type(made := unplaced(v)) is cst.Call and model.metrics.growing(made) is not None
            for v in model.provenance.instance_values(store.container, statement)
        ):
            return  # a metric's list states gather the batches by design: whether it is reset is ML020's question
        if written.kind == "subscript" and model.provenance.tensor_buffer(written.container, written.statement):
            return  # `obs[step] = next_obs` copies into a tensor allocated once: nothing grows
        # `bank[start:end] = emb` replaces a window of its container: it keeps the value only where the
        # container is a list, which must then show (a tensor or an array copies it into fixed storage)
        window = store.kind == "subscript" and _slice_window(statement)
        assumed = window and model.provenance.value_kind(store.container, statement) != "container"
        region = model.loops.eval_region(statement)
        # A training step that keeps a detached output (`self.logits.append(logits.detach())`):
        # the graph is gone, the tensor of batch size is still on the device every step.
        training = region is None
        if training:
            region = model.loops.step_region(statement)
            if type(region) is cst.FunctionDef and model.loops.is_module_forward(region):
                return  # what a forward passes to a context object is the caller's to keep or drop
            if type(region) is cst.FunctionDef and model.loops.accumulates_by_design(region):
                return  # a metric's `update` gathers the epoch's outputs: that is what it is for
        if region is None or not model.loops.outlives(store, region) or model.loops.is_generated_sequence(store, region):
            return
        if model.loops.generates_output(store, region):
            return  # the generated sequence of one batch, returned: bounded and needed
        if store.keep is not None and model.summaries.keeps_on_host(store.keep):
            return  # the callee moves what it keeps off the device (`store.append(value.cpu())`)
        if joined_by_numpy(model, store.container, statement):
            return  # `np.concatenate(encoded)` after the loop: NumPy refuses CUDA tensors, so they are host values
        provenance = model.provenance
        graph = model.grad_state(statement) is not Grad.OFF and provenance.carries_history(store.value, statement)
        if graph and _retained_graph_reports(model, store):
            return  # retained-graph (ML001) reports this store, with its graph
        parts = [p for p in literal_parts(store.value) if provenance.device_output(p, statement)]
        if not parts:
            return
        kept = code(store.value)
        # a step that updates weights is a training step; a loop that only runs the model, or
        # differentiates without stepping (Grad-CAM), is a step of its own
        trains = training and (
            (type(region) is cst.FunctionDef and model.loops.train_step_method(region)) or model.loops.optimizes(region)
        )
        each, unit, units = ("training step" if trains else "step", "step", "steps") if training else (
            "evaluation batch", "batch", "batches"
        )
        hooked = model.frameworks.forward_hook_of(region) if type(region) is cst.FunctionDef else None
        if hooked is not None:  # a forward hook runs on every forward of its module, training or not
            each, unit, units = f"forward of `{code(hooked)}`", "forward", "forwards"
        # the tensor's own size, where the code states it; with a graph kept too, what it saved adds an unknown amount
        size = None if graph else model.sizes.kept(store)
        if size is not None:
            message = (
                f"`{kept}` keeps {size.describe()} from every {each} on the device in `{code(store.container)}`: "
                f"{size.amount()} per {unit}"
            )
        else:
            message = (
                f"`{kept}` keeps a device tensor{' and its autograd graph' if graph else ''} from every {each} in "
                f"`{code(store.container)}`, so device memory grows with the number of {units}"
            )
        replacements = [(p, off_device(p)) for p in parts]
        extra: dict[str, object] = {}
        if assumed:
            # shown with `--preview` only; and no edit, which a tensor buffer would not need
            extra = {"assumptions": [f"`{code(store.container)}` is a list, not a tensor or array filled in place"]}
        self.report(
            statement,
            message,
            f"{store.via}: move it off the device as you return it: `{code(replacements[0][1])}`"
            if store.kind == "returned"
            else f"move it off the device as you collect it: `{code(replacements[0][1])}`"
            + (f" (assumed: {extra['assumptions'][0]})" if assumed else ""),  # type: ignore[index]
            fix=keep_fix(model, store, region, replacements, "Move the collected tensor to the CPU", False)
            if not assumed
            and (
                all(provenance.value_kind(p, statement) == "tensor" for p in parts)
                or (len(parts) == 1 and provenance.collected_tensors(store.container, statement))
            )
            else None,  # not known to be a tensor (a list of strings, a model's tuple): no `.cpu()` edit
            severity=Severity.ERROR if size is not None and size.large else Severity.WARNING,
            **extra,
        )

    def _kept_on_device(self, statement: cst.CSTNode) -> bool:
        """Does the framework keep this step's return where it is (Lightning < 2.0's `validation_step`
        returns for `validation_epoch_end`), not moved to the CPU first?"""
        func = self.model.scope_of(statement)
        kept = self.model.frameworks.kept_return(func) if isinstance(func, cst.FunctionDef) else None
        return kept is not None and kept.on_device

    def check_comprehension(self, store: Store, loop: cst.CompFor) -> None:
        model = self.model
        statement = store.statement
        scope = model.scope_of(statement)
        grad = model.grad_state(statement)
        if grad is not Grad.OFF and not model.loops.is_eval_function(scope):
            return  # a comprehension that trains is ML001's, if it keeps graphs
        provenance = model.provenance
        if grad is not Grad.OFF and provenance.carries_history(store.value, store.value):
            return  # a graph is kept too: retained-graph (ML001) reports this store
        parts = [p for p in literal_parts(store.value) if provenance.device_output(p, store.value)]
        if not parts:
            return
        replacements = tuple((p, off_device(p)) for p in parts)
        self.report(
            statement,
            f"`{code(store.value)}` keeps a device tensor from every evaluation batch in `{code(store.container)}`,"
            " so device memory grows with the number of batches",
            f"move it off the device as you collect it: `{code(replacements[0][1])}`",
            fix=FixSpec(Applicability.UNSAFE, "Move the collected tensor to the CPU", replacements)
            if all(provenance.value_kind(p, statement) == "tensor" for p in parts)
            else None,
        )


def _retained_graph_reports(model: "SemanticModel", store: Store) -> bool:
    """Does retained-graph (ML001) report this store of a value with history? Not where no step
    runs it, nor where the loop's collection is reduced right after it into a returned value
    (`return torch.cat(all_logits)`, by design for a chunked forward): in an evaluation loop run
    with grad, that is each batch's logits and graph kept on the device, reported here."""
    region = model.loops.step_region(store.statement)
    if region is None:
        return False
    return isinstance(region, cst.FunctionDef) or not consumed_after(model, store.container, region, store.kind == "concat")


def _slice_window(statement: cst.CSTNode) -> bool:
    """Is `statement` a store into a slice of its container (`bank[a:b] = v`, `queue[i, :n] = v`)?"""
    if type(statement) is not cst.Assign or len(statement.targets) != 1:
        return False
    target = statement.targets[0].target
    return type(target) is cst.Subscript and any(type(e.slice) is cst.Slice for e in target.slice)
