from __future__ import annotations

import libcst as cst

from typing import TYPE_CHECKING

from memlint.analysis.flow.bindings import unpacked
from memlint.analysis.flow.consumers import consumed_after
from memlint.analysis.syntax.expressions import code, literal_parts, names_in, root_name
from memlint.analysis.regions.grad import Grad
from memlint.analysis.project import history_sources
from memlint.models import Applicability, Severity
from memlint.patterns import is_test_path
from memlint.analysis.regions.loops import Store
from memlint.rules.base import FixSpec, StoreRule, detach, detach_entries, keep_fix, off_device, torch_alias

if TYPE_CHECKING:
    from memlint.analysis.model import SemanticModel


class RetainedGraph(StoreRule):
    code = "ML001"
    name = "retained-graph"
    severity = Severity.ERROR
    severity_otherwise = (
        "a warning where the code shows under 0.25 MiB kept per iteration, and for a value kept from one "
        "`forward` call to the next or written into a graph object"
    )
    summary = "A value that carries autograd history is kept beyond its loop iteration"
    fix_applicability = Applicability.SAFE
    needles = (("for ", "while ", "_step", "_batch_", "forward", "compute_loss", "Engine", "ignite"),)
    context_in_importers = True  # `meter.update(loss)` in another file's training loop: the meter keeps it here
    what = """
Checks for values that may carry autograd history (a loss, a model output, a
metric computed with grad) being kept beyond the loop iteration that produced
them: appended to a list created outside the loop, added to an outer
accumulator (`total += loss`), stored in `d[k]` or on `self`, or fed to a
meter, without `.detach()`, `.item()` or `float()` on the way. An object of
the project's own classes keeps what its method keeps, as its definition
says: `metric(out, y)` runs its `forward`, also one inherited from a base
class in another file that hands `out` to the subclass's `update`. Where the
keeping method is in another file, the finding is at the call and also at
the statement of that method that keeps the value (`self.sum += val * n`),
where one fix serves every caller. A mapping
filled entry by entry (`metrics["aux"] = aux.mean()`) holds what its entries
were set to, also where another function keeps it: the finding is on the
entry that brings the history in. Also inside a
function run once per step (a framework hook, a method looped over, a
module's `forward`), and a buffer updated in training mode (under
`if self.training:`, or after `if not self.training: return ...`), in place
(`self.running_mean.mul_(m).add_(v)`) or from its old value
(`self.running_mean = m * v + (1 - m) * self.running_mean`), with a value that
carries history. A module's parameters require grad: an average of them kept
across steps outside `no_grad` (an exponential moving average of the weights,
`shadow[n] = d * shadow[n] + (1 - d) * p`, or `ema_p.mul_(d).add_(p)` into a
frozen copy) chains each step's graph onto the last, also in a method of
another file that the training loop calls every step (`ema.update(model)`).
A forward hook (`model.layer4.register_forward_hook(save)`) runs on every
forward of its module, with the forward's grad mode: a hook that keeps the
output it is handed while the module trains keeps every step's output.

Where the code shows how large the kept tensor is, the message says how much
device memory each iteration keeps, and the severity follows it (an error
from 0.25 MiB per iteration on): a loss that `backward()` was called on
without a gradient has one element, one 512-byte block of the allocator
("about 0.5 KiB of device memory per iteration"); a model output of literal
shape is its elements times its dtype's size.
"""
    why = """
A tensor with history keeps its whole autograd graph alive. If the value was
never backwarded, every activation the graph saved stays on the GPU: a loop
without backward that appends its loss grows by +18 MiB per iteration
(4×Linear(2048), batch 256). After `backward()` the saved tensors are freed:
the kept loss is 512 bytes of device memory per iteration (`memlint verify`
measures +0.0005 MiB/iter, not a device leak), but the graph skeleton still
leaks host memory, about 750 bytes per autograd node (5 KiB per iteration
for a two-layer MLP's loss, measured with glibc's malloc statistics; +1.5 GB
over 3000 iterations of a 300-layer MLP), and tensors that a custom autograd
Function parks on
`ctx` stay on the GPU: +192 MiB per iteration measured (Fast-LLM PR 486:
~164 MiB per microbatch, OOM on 80 GB at 128 microbatches).
"""
    example = """
losses = []
for x, y in loader:
    loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()
    losses.append(loss)
"""
    use_instead = """
losses = []
for x, y in loader:
    loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()
    losses.append(loss.detach())  # or loss.item() for a Python number
"""

    def __init__(self, model: "SemanticModel", sink) -> None:  # type: ignore[no-untyped-def]
        super().__init__(model, sink)
        self._keeps_reported: set[int] = set()  # callees' stores already reported (once each)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._check_kept_for_other_files(node)

    def _check_kept_for_other_files(self, func: cst.FunctionDef) -> None:
        """A function of this file that calls of other files hand a value with autograd history on every
        training step (`self.meter.update(**outputs)`), and that keeps that parameter beyond the call: the
        finding goes to the keep here too, where the fix for every caller is (the caller's file reports
        its call)."""
        model = self.model
        for param, (statement, container) in (model.summaries.keeps(func) or {}).items():
            if id(statement) in self._keeps_reported or model.grad_state(statement) is Grad.OFF:
                continue
            caller = model.provenance.handed_by_callers(param, func)
            if caller is None:
                continue
            self._keeps_reported.add(id(statement))
            where = model.summaries.name(func)
            self.report(
                statement,
                f"`{param}` is kept in `{container}` beyond its step with its autograd graph: {caller} hands"
                f" `{where}` a value with history on every training step",
                f"detach it where `{where}` keeps it (or hand it `.detach()`ed values, `.item()` for Python numbers)",
                severity=Severity.WARNING,
                kept=param,
                assumed=[],
                meter=None,
                assumptions=[],
                sources=[],
            )

    def visit_Assign(self, node: cst.Assign) -> None:
        super().visit_Assign(node)
        target = node.targets[0].target
        if type(target) is cst.Attribute and root_name(target) == "self":
            self._check_output_on_self(node, target)

    def _check_output_on_self(self, node: cst.Assign, target: cst.Attribute) -> None:
        """A module's `forward` keeps what it computed on `self`: each call's graph lives on
        until the next call replaces it (and with it every activation it saved, until backward)."""
        model = self.model
        func = model.scope_of(node)
        if not isinstance(func, cst.FunctionDef) or func.name.value != "forward":
            return
        if is_test_path(model.path):
            return  # a test's module exposes its activations for the test to check, over a call or two
        if not any(assign is node for assign, _ in model.summaries.outputs_kept_on_self(func)):
            return
        if _per_sequence_state(model, func, target):
            return
        kept = code(node.value)
        fix = None
        if model.provenance.value_kind(node.value, node) == "tensor":  # (a tuple or an output object has no `.detach()`)
            fix = FixSpec(Applicability.UNSAFE, "Detach the value kept on `self`", ((node.value, detach(node.value)),))
        self.report(
            node,
            f"`{code(target)}` keeps `{kept}` with its autograd graph from one `forward` call to the next",
            f"store `{code(detach(node.value))}` if nothing differentiates through `{code(target)}` later",
            severity=Severity.WARNING,
            fix=fix,
            kept=kept,
            assumed=[],
            meter=None,
            assumptions=[],
            sources=sorted(history_sources(model, node.value, node)),
        )

    def check_comprehension(self, store: Store, loop: cst.CompFor) -> None:
        """`outputs = [model(x) for x in loader]` with grad on, in a function that never differentiates:
        every batch's graph is held at once."""
        model = self.model
        statement = store.statement
        scope = model.scope_of(statement)
        if model.grad_state(statement) is not Grad.ON or model.loops.trains_each_iteration(scope):
            return
        parts = [p for p in literal_parts(store.value) if model.provenance.carries_history(p, store.value)]
        # `torch.cat([...])` holds one value: it may be backwarded, or returned for the caller's backward
        reduced = type(statement.value) is cst.Call and (model.imports.resolve(statement.value.func) or "").startswith("torch.")
        if not parts or consumed_after(model, store.container, statement, reduced):
            return
        kept = code(store.value)
        replacements = tuple((p, detach(p)) for p in parts)
        self.report(
            statement,
            f"`{kept}` is kept for every batch in `{code(store.container)}` with its autograd graph, and never"
            " backwarded",
            f"collect `{code(replacements[0][1])}` (or `.item()` for a Python number)",
            severity=Severity.ERROR,
            fix=FixSpec(Applicability.UNSAFE, "Detach the collected value", replacements),
            kept=kept,
            assumed=[],
            meter=None,
            assumptions=[],
            sources=sorted(history_sources(model, store.value, statement)),
        )

    def check_store(self, store: Store) -> None:
        model = self.model
        loops = model.loops
        statement = store.statement
        region = loops.step_region(statement)
        scope = model.scope_of(statement)
        if region is None and store.kind == "in-place" and isinstance(scope, cst.FunctionDef) and loops.has_backward(scope):
            region = scope  # a function that differentiates is one step, wherever its callers are
        # a step's return kept by the framework has the history it was computed with, whatever mode returns it
        if region is None or (model.grad_state(statement) is Grad.OFF and store.kind != "returned"):
            return
        if not isinstance(region, cst.FunctionDef) and model.loops.unrolls_differentiation(region):
            return  # a meta-learner's inner loop: its graph is built for the caller's backward, kept on purpose
        # a running statistic of a module, updated in place (`self.running_mean.mul_(m).add_(v)`) or
        # rebound from its old value (`self.running_mean = m * self.running_mean + (1 - m) * v`)
        running_update = store.kind == "in-place" or (store.kind == "accumulate" and root_name(store.container) == "self")
        in_place_forward = (
            running_update
            and isinstance(region, cst.FunctionDef)
            and loops.is_module_forward(region)
            and loops.in_training_mode(statement)
        )
        # what the framework keeps of a step's return is not what it backwards (the detached entries are left out)
        kept_return = store.kind == "returned"
        backwarded_returns = set() if kept_return else _backwarded_by_framework(model, region)
        parts = [
            p
            for p in literal_parts(store.value)
            if model.provenance.carries_history(p, statement)
            or (in_place_forward and model.provenance.from_inputs(p, region))
            # `ema_p.add_(p)`: an in-place operation with a leaf that requires grad records a graph
            or (store.kind == "in-place" and model.provenance.grad_leaf(p, statement))
            or (isinstance(p, cst.Name) and p.value in backwarded_returns and model.scope_of(statement) is region)
        ]
        if kept_return and model.grad_state(statement) is Grad.OFF:
            # computed at the return without grad: only a value bound earlier with grad on keeps a graph
            parts = [p for p in parts if type(p) in (cst.Name, cst.Attribute, cst.Subscript) and root_name(p) is not None]
        if not parts or not loops.outlives(store, region):
            return
        # what the framework keeps is a mapping this function builds (`logging_output = {"loss": loss, ...}`):
        # the finding and its fix go to the entries that bring the history in
        report_at: cst.CSTNode = statement
        if kept_return:
            entries = [e for p in parts for e in _mapping_entries_with_history(model, p, statement)]
            if entries:
                parts, report_at = entries, entries[0]
        if store.kind == "accumulate" and model.provenance.integer_tensor(store.container, statement):
            return  # an integer tensor never requires grad: the sum keeps no graph
        reduced = store.kind in ("accumulate", "concat")
        if not isinstance(region, cst.FunctionDef) and consumed_after(model, store.container, region, reduced):
            return

        scope = model.scope_of(statement)
        backwarded = model.provenance.backwarded_names(region)
        if isinstance(region, cst.FunctionDef) and not kept_return:  # a per-step hook: the framework backwards what it returns
            for ret in model.tree.descendants(region.body, cst.Return):
                if ret.value is not None:
                    backwarded |= set(names_in(ret.value))
        elif kept_return and loops.train_step_method(region):  # it backwards the entries it detaches before keeping
            backwarded |= set(names_in(statement.value)) - set(names_in(store.value))
        backwarded = model.provenance.graph_siblings(backwarded, scope)
        reached = model.provenance.dependencies(backwarded, scope)
        was_backwarded = bool(backwarded) and all(set(names_in(p)) & reached for p in parts)
        # `losses[-1].backward()`: what the container keeps is differentiated from it, so a
        # detached copy there would break the backward; the hint says what to change, no fix
        backwarded_from_container = (
            isinstance(store.container, cst.Name)
            and store.container.value in backwarded
            and store.kind in ("append", "subscript")
        )
        was_backwarded = was_backwarded or backwarded_from_container
        # the value comes back from a per-step function of this file that differentiates its
        # loss itself (`loss_each = self.train_one_batch(x)`): backward ran there
        differentiated_in = [_differentiating_callee(model, p, statement) for p in parts]
        if not was_backwarded and all(differentiated_in):
            was_backwarded = True
        ctx_stores = model.autograd_functions.tensor_stores

        kept = code(store.value)
        label = f"`{kept}`"
        # a callee of this file keeps it (`meter.update(loss)` -> `self.sum += val`): the finding and
        # its fix go to the callee's store, once for every call that hands it history
        at_keep = store.keep is not None and store.kind == "update"
        if at_keep:
            if id(store.keep) in self._keeps_reported:
                return
            self._keeps_reported.add(id(store.keep))
            label = f"`{kept}` (line {model.range_of(statement).start.line})"
        where = "this loop" if not isinstance(region, cst.FunctionDef) else f"`{region.name.value}`"
        if at_keep and where == "this loop":
            where = "its loop"
        # the kept value is itself a per-batch activation (a model output): it stays on the device
        # (not of a running value, `total = total + out`: one tensor, read back each iteration where it is)
        running = store.kind == "accumulate"
        itself = [p for p in parts if not running and model.provenance.device_output(p, statement)]
        retained = was_backwarded and model.provenance.retains_graph(region)
        # backward only on some iterations (`if not forward_only: loss.backward()`)
        backward_sites = [call for call, _ in model.provenance.backward_calls(region)]
        guards = [_guard(model, call, region) for call in backward_sites]
        conditional = guards if guards and all(guards) else []
        # `if not finite: skip  else: loss.backward()`: the backward is in the `else`
        branch = "under" if not conditional or model.tree.contains(conditional[0].body, backward_sites[0]) else (
            "in the `else` of"
        )
        # what one iteration adds on the device, where the code states it (the tensor itself:
        # backward freed what its graph saved)
        size = model.sizes.kept(store) if was_backwarded and not retained else None
        step = "iteration" if where in ("this loop", "its loop") else "call"
        if store.kind == "in-place" or in_place_forward:
            severity = Severity.ERROR
            how = "in place " if store.kind == "in-place" else ""
            carries = "requires grad" if all(model.provenance.grad_leaf(p, statement) for p in parts) else "carries autograd history"
            message = f"`{code(store.container)}` is updated {how}with `{kept}`, which {carries}, so its graph grows every {step}"
        elif isinstance(region, cst.FunctionDef) and (hooked := model.frameworks.forward_hook_of(region)) is not None:
            # whether the forward's loss is backwarded is its caller's business: the output stays either way
            severity = Severity.ERROR
            message = (
                f"{label} is kept by the forward hook of `{code(hooked)}` beyond its forward, so every "
                "forward's output stays on the device, with its graph"
            )
        elif not was_backwarded and _keeps_as(model, store, at_keep) == "accumulate":
            # a running value computed from itself (`shadow = d * shadow + (1 - d) * p`): each step's
            # graph is chained onto the last, whatever it saved
            severity = Severity.ERROR
            message = (
                f"{label} is kept beyond its iteration with its autograd graph and never backwarded in {where}, "
                f"so the graph grows every {step}"
            )
        elif not was_backwarded:
            severity = Severity.ERROR
            message = (
                f"{label} is kept beyond its iteration with its autograd graph and never backwarded in {where}, "
                "so its activations stay on the device"
            )
        elif retained:
            severity = Severity.ERROR
            message = (
                f"{label} is kept beyond its iteration with its autograd graph, whose activations "
                "`backward(retain_graph=True)` does not free"
            )
        elif ctx_stores:
            first = ctx_stores[0]
            severity = Severity.ERROR
            message = (
                f"{label} is kept beyond its iteration with its autograd graph, whose Function "
                f"`{first.function.name.value}` keeps tensors on `ctx.{first.attributes[0]}` on the device"
            )
        elif itself and size is not None:
            severity = Severity.ERROR if size.large else Severity.WARNING
            message = f"{label} is kept beyond its iteration: {size.describe()} on the device, {size.amount()} per iteration"
        elif itself:
            severity = Severity.ERROR
            output = "" if code(itself[0]) == kept else f" (`{code(itself[0])}`)"
            message = f"{label} is kept beyond its iteration and holds a whole model output{output}, whose tensors stay on the device"
        elif conditional:
            severity = Severity.WARNING
            message = (
                f"{label} is kept beyond its iteration with its graph; backward runs only {branch} "
                f"`if {code(conditional[0].test)}:` (line {model.range_of(conditional[0]).start.line})"
            )
        elif size is not None:
            severity = Severity.ERROR if size.large else Severity.WARNING
            message = (
                f"{label} is kept beyond its iteration with its graph skeleton: {size.amount()} of device memory "
                "per iteration, and autograd nodes on the host"
            )
        elif _keeps_as(model, store, at_keep) == "accumulate":  # one running tensor: only its chain of autograd nodes grows
            severity = Severity.WARNING
            message = f"{label} is kept beyond its iteration with its graph skeleton, whose autograd nodes pile up on the host"
        else:
            severity = Severity.WARNING
            message = (
                f"{label} is kept beyond its iteration with its graph skeleton: its tensors stay on the device, "
                "its autograd nodes on the host"
            )
        # where the value crossed a function, and what was assumed: on the help line (the message stays one sentence)
        path = [model.summaries.origin(p, statement) for p in parts]
        notes = "".join(f" ({step})" for step in dict.fromkeys(p for p in path if p))
        if any(isinstance(p, cst.Name) and p.value in backwarded_returns for p in parts):
            notes += f" (`{region.name.value}` returns it: the framework backwards the loss it holds)"  # type: ignore[union-attr]
        if store.via:
            line = f" (line {model.range_of(store.keep).start.line})" if store.keep is not None else ""
            notes += f" ({store.via}{line})"
        # what the finding rests on where no definition is visible: the project index checks it
        # against the other files' summaries
        assumed = model.provenance.assumed_losses(parts, statement)
        assumptions = [f" ({store.via})"] if store.assumed else []
        if assumed:
            names = ", ".join(f"`{a}(...)`" for a in assumed)
            assumptions.append(
                f" (assumed from its name: {names} returns a value with autograd history; it is not defined in this file)"
            )
            notes += assumptions[-1]
        handed = model.provenance.handed_parameters(parts, statement)
        if handed:  # ignite's `Metric.update(output)`: the graph comes from what the framework hands over
            framework = model.frameworks.hook(scope).framework  # type: ignore[arg-type,union-attr]
            notes += f" (assumed: {framework} hands `{handed[0]}` over with its graph when a training step produced it)"
        meter = model.loops.meter_class(store) if store.assumed else None
        # A part that is itself a non-scalar device tensor (a model output, logits) leaves the
        # device as well: `.detach()` alone frees the graph but keeps the tensor there every step.
        # Not one handed to a callee that keeps it (`metric(out, y)`): the callee computes with it,
        # maybe beside the other device tensors it is handed, so only its graph may go.
        to_callee = bool(store.via) and store.kind != "returned"  # (a framework keeping a step's return computes nothing)
        whole = [not running and model.provenance.device_output(p, statement) for p in parts]
        on_device = [w and not to_callee for w in whole]
        own = [(p, off_device(p) if moved else _detach_history(model, p, statement)) for p, moved in zip(parts, on_device)]
        hint = f"store `{code(own[0][1])}`" + (
            " (or `.item()` for a Python number)"
            if store.kind in ("accumulate", "append", "update") and not whole[0] and not in_place_forward
            else ""
        )
        # `.detach()` applies to a tensor; a model's output may be a tuple or a
        # ModelOutput, a mapping needs its entries moved, and a list has no
        # `.detach()` at all. The label comes from `keep_fix`'s one evidence rule.
        # (a value the code tests for a number before it stores it may be one on some path: no `.detach()`)
        kinds = {
            "maybe" if model.provenance.number_on_some_path(p, statement) else model.provenance.stored_kind(p, statement)
            for p in parts
        }
        if kinds == {"maybe"} and len(parts) == 1 and model.provenance.collected_tensors(store.container, statement):
            kinds = {"tensor"}  # `torch.cat(outs)` after the loop: what it collects are tensors
        # in a per-step function, the loop around the store is what the code after it reads from
        loops_here = model.enclosing_loops(statement)
        fix_region = loops_here[0] if isinstance(region, cst.FunctionDef) and loops_here else region
        fix = None
        # `losses[i], costs[i] = step()`: the call returns a tuple, only one element of it is kept
        unpacked_call = (
            isinstance(statement, cst.Assign)
            and isinstance(statement.targets[0].target, (cst.Tuple, cst.List))
            and isinstance(store.value, cst.Call)
        )
        if unpacked_call and not backwarded_from_container:
            hint = f"unpack the result into names and keep the detached one in `{code(store.container)}`"
        elif backwarded_from_container:
            hint = (
                f"backward it before you store it, then store `{code(own[0][1])}`: the loop differentiates what "
                f"`{code(store.container)}` holds, so detaching there alone would break it"
            )
        elif kinds == {"tensor"}:
            what = "Detach the stored value" + (" and move it off the device" if any(on_device) else "")
            fix = keep_fix(model, store, fix_region, own, what, True)
        elif kinds <= {"tensor", "maybe"}:
            pass  # not known to be a tensor (a model's tuple, a number): the hint says what to store, no edit
        elif kinds == {"mapping"} and len(parts) == 1 and torch_alias(model) is not None:
            moved = model.provenance.device_output(parts[0], statement)
            entries = detach_entries(parts[0], torch_alias(model), off_device=moved)
            hint = f"store a copy with its tensors {'moved off the device' if moved else 'detached'}: `{code(entries)}`"
            what = "Detach the tensors of the stored mapping" + (" and move them off the device" if moved else "")
            fix = keep_fix(model, store, fix_region, [(parts[0], entries)], what, False)
        else:
            hint = "detach each tensor in it before storing (`{k: v.detach() for k, v in d.items()}`)"
        if isinstance(region, cst.FunctionDef) and loops.is_module_forward(region) and loops.graph_frame_store(store):
            # DGL: message passing reads the feature, so it must keep its graph; the graph object must not
            graph = code(store.container.value)  # type: ignore[attr-defined]
            severity = Severity.WARNING
            message = f"`{kept}` is written into graph `{graph}`, which keeps it with its autograd graph after `forward` returns"
            hint, fix = f"write the features inside `with {graph}.local_scope():`, which drops them when it ends", None
            if not loops.steps_with_lasting_graph(region, root_name(store.container) or graph):
                # what it costs depends on the caller: only a graph that outlives the step keeps them
                assumptions.append(
                    f" (assumed: the caller hands `forward` the same `{graph}` every step, as full-graph training "
                    "does; a graph built per batch dies with its step)"
                )
                notes += assumptions[-1]
        # a mapping that gets its history from the values set into its entries (`metrics["nll"] =
        # nll.mean()`, with the other entries detached): the leak is where such a value goes in
        entries = (
            model.provenance.history_entries(parts[0], statement)
            if len(parts) == 1 and not (kept_return or running_update)
            else []
        )
        if entries and isinstance(parts[0], cst.Name) and _returned_alone(model, region, parts[0].value, backwarded_returns):
            # the step also returns the mapping for the framework to backward its loss (`return log`, not
            # `return loss, metrics`): a detach where the entry is set would detach that loss too, so the
            # finding stays at the keep, and names the entry
            if fix is None:
                entry_statement, value = entries[0]
                line = model.range_of(entry_statement).start.line
                hint = f"store a copy of `{code(parts[0])}` with `{code(value)}` (line {line}) detached"
            entries = []
        if entries:
            kept_at = model.range_of(store.keep if at_keep else statement).start.line
            for entry_statement, value in entries:
                if id(value) in self._keeps_reported:
                    continue
                self._keeps_reported.add(id(value))
                self.report(
                    entry_statement,
                    message.replace(label, f"`{code(value)}` in `{code(parts[0])}`", 1),
                    f"set `{code(_detach_history(model, value, entry_statement))}` (or `.item()` for a Python number):"
                    f" `{code(parts[0])}` is kept at line {kept_at}" + notes,
                    severity=severity,
                    fix=None,
                    kept=code(value),
                    assumed=assumed,
                    meter=meter,
                    assumptions=assumptions,
                    sources=sorted(history_sources(model, value, entry_statement)),
                )
            return
        # `loss, stats = self.actor(data)` with `self.actor` handed to the constructor: what the project's
        # constructions hand it decides what `stats` holds (the project index reads their classes)
        handed = next(filter(None, (model.handed.handed_element(p, statement) for p in itself)), None)
        described = model.handed.exported(*model.handed.named_parameter(handed[0])) if handed else []  # type: ignore[misc]
        if loops.entry_for_returning_method(store, region):
            # `self.forward_ret_dict["cls_preds"] = cls_preds` for `get_loss`: one step's, replaced by the next
            # forward, and differentiated through by the loss that method returns: no detach to offer
            severity = Severity.WARNING
            message = f"`{code(store.container)}` keeps `{kept}` with its autograd graph from one `forward` call to the next"
            hint = (
                "another method of the class computes what it returns from it (a loss): the next forward replaces it,"
                " so it holds one step; detach it only if nothing differentiates through it"
            )
            fix = None
        if at_keep:
            hint, fix = _fix_at_keep(model, store)
            notes = notes.replace(f" ({store.via} (line {model.range_of(store.keep).start.line}))", "")
            # (of a condition, the test: `if criterion(loss):` hands it over, not the block it guards)
            handing = statement.test if isinstance(statement, (cst.If, cst.While)) else statement
            notes += f" (`{code(handing)}` hands it over once per step)"
        self.report(
            store.keep if at_keep else report_at,
            message,
            hint + notes,
            severity=severity,
            fix=fix,
            kept=kept,  # for the project index: is a Function of another file behind it?
            assumed=assumed,  # loss-named callees of other files whose summaries decide
            meter=meter,  # the class, not in this file, whose `update` was assumed to keep its argument
            assumptions=assumptions,  # the words of the message that the project index may confirm
            sources=sorted(set().union(*(history_sources(model, p, statement) for p in parts))),
            **({"handed_element": [*described, handed[1]]} if described and handed else {}),
        )



def _mapping_entries_with_history(
    model: "SemanticModel", part: cst.BaseExpression, at: cst.CSTNode
) -> list[cst.BaseExpression]:
    """Where `part` is a name bound once, in the function around `at`, to a dict display: the values of
    its entries that carry autograd history."""
    if type(part) is not cst.Name:
        return []
    bindings = model.bindings(model.scope_of(at), part.value)
    if len(bindings) != 1 or type(bindings[0].value) is not cst.Dict:
        return []
    node = bindings[0].node
    return [
        e.value
        for e in bindings[0].value.elements
        if type(e) is cst.DictElement and model.provenance.carries_history(e.value, node)
    ]


def _keeps_as(model: "SemanticModel", store: Store, at_keep: bool) -> str:
    """How the value is kept: the store's kind, or, where a callee of this file keeps it
    (`meter.update(loss)`), the kind of the callee's store (`self.sum += val`)."""
    inner = model.loops.store_of(store.keep) if at_keep and store.keep is not None else None
    return inner.kind if inner is not None else store.kind


def _per_sequence_state(model: "SemanticModel", forward: cst.FunctionDef, target: cst.Attribute) -> bool:
    """Recurrent state of a step module (a Tacotron decoder's attention weights): the class reads
    `self.<attr>` back and a method of its own other than `forward` and `__init__` starts it afresh
    (`init_states`: `self.attention_weights = torch.zeros(B, T)`), once per sequence. The graph kept
    from one step to the next is the sequence's own, which its backward needs."""
    cls = model.enclosing_class(forward)
    if cls is None:
        return False
    name = target.attr.value
    read = reset = False
    for method in cls.body.body:
        if not isinstance(method, cst.FunctionDef):
            continue
        for attr in model.tree.descendants(method, cst.Attribute):
            if attr.attr.value != name or not (isinstance(attr.value, cst.Name) and attr.value.value == "self"):
                continue
            parent = model.tree.parent_of(attr)
            stored = isinstance(parent, cst.AssignTarget)
            if not stored:
                read = True
            elif method.name.value not in ("forward", "__init__"):
                assign = model.tree.parent_of(parent)
                value = assign.value if isinstance(assign, cst.Assign) else None
                if value is not None and not model.provenance.carries_history(value, assign):
                    reset = True
    return read and reset


def _fix_at_keep(model: "SemanticModel", store: Store) -> tuple[str, FixSpec | None]:
    """The hint and fix for a value that a callee of this file keeps: detach, in the callee's
    store, what it reads of the kept parameter; safe only where the callee uses it as a tensor."""
    callee = model.scope_of(store.keep)
    kept_here = model.loops.store_of(store.keep)
    if not isinstance(callee, cst.FunctionDef) or kept_here is None:
        return "detach it where it is kept", None
    summaries = model.summaries
    params = {p for p, (statement, _) in (summaries.keeps(callee) or {}).items() if statement is store.keep}
    call = store.statement.value if isinstance(store.statement, cst.Expr) else None
    if isinstance(call, cst.Call):  # only the parameter the history comes in by (`val`, not the count `n`)
        params = {p for p in params if summaries.argument_for(call, callee, p) is store.value} or params
    names = {name for name, sources in summaries.derived(callee).items() if sources & params}
    reads = [
        node
        for node in model.tree.descendants(kept_here.value, cst.Name)
        if node.value in names and not _is_attribute_name(model, node)
        and model.provenance.reads_with_history(node, {node.value})
    ]
    if not reads:
        return "detach it where it is kept", None
    edits = [(node, detach(node)) for node in reads]
    surely = all(model.provenance.value_kind(node, store.keep) == "tensor" for node in reads)
    where = summaries.name(callee)
    hint = f"detach it where `{where}` keeps it: `{code(edits[0][1])}`"
    if surely:
        return hint, FixSpec(Applicability.SAFE, f"Detach it where `{where}` keeps it", tuple(edits))
    # the callee may be handed numbers too, where `.detach()` would fail: detach what this call hands
    # over, where it is known to be a tensor
    if model.provenance.value_kind(store.value, store.statement) == "tensor":
        handed = detach(store.value)
        hint = f"hand over `{code(handed)}` (`{where}` keeps what it is handed)"
        return hint, FixSpec(Applicability.SAFE, "Detach the value handed over", ((store.value, handed),))
    return hint, None


def _detach_history(model: "SemanticModel", expr: cst.BaseExpression, at: cst.CSTNode) -> cst.BaseExpression:
    """`expr.detach()`; of a conditional expression, only the branches with history are detached
    (`x if isinstance(x, float) else x.item()` holds a float in its first branch, which has no `.detach()`)."""
    if isinstance(expr, cst.IfExp):
        branches = {}
        for side in ("body", "orelse"):
            branch = getattr(expr, side)
            branches[side] = _detach_history(model, branch, at) if model.provenance.carries_history(branch, at) else branch
        return expr.with_changes(**branches)
    return detach(expr)


def _is_attribute_name(model: "SemanticModel", node: cst.Name) -> bool:
    """`name` of `self.name` or of a keyword `f(name=...)`: not a read of the variable."""
    parent = model.tree.parent_of(node)
    return (isinstance(parent, cst.Attribute) and parent.attr is node) or (isinstance(parent, cst.Arg) and parent.keyword is node)


# Per-step hooks whose return value the framework backwards (Lightning's `training_step` under
# automatic optimization, the HF Trainer's `compute_loss`): what they return is the loss.
_RETURN_BACKWARDED = {"training_step", "compute_loss"}


def _backwarded_by_framework(model: "SemanticModel", region: cst.CSTNode) -> set[str]:
    """Names a training-step hook returns for its framework to backward (`return log` of a
    `training_step` whose `log["loss"]` Lightning differentiates); none under manual optimization."""
    if not (isinstance(region, cst.FunctionDef) and region.name.value in _RETURN_BACKWARDED):
        return set()
    if not model.loops.train_step_method(region):
        return set()
    cls = model.enclosing_class(region)
    for assign in model.tree.descendants(cls, cst.Assign) if cls is not None else ():
        if code(assign.targets[0].target) == "self.automatic_optimization" and code(assign.value) == "False":
            return set()
    returned: set[str] = set()
    for ret in model.tree.descendants(region.body, cst.Return):
        if ret.value is not None and model.scope_of(ret) is region:
            returned |= {e.value for e in literal_parts(ret.value) if isinstance(e, cst.Name)}
    return returned

def _returned_alone(model: "SemanticModel", region: cst.CSTNode, name: str, backwarded_returns: set[str]) -> bool:
    """Does the per-step hook `region` return `name` as its whole value (`return log`), for its
    framework to backward the loss that mapping holds?"""
    if name not in backwarded_returns:
        return False
    returns = [r for r in model.tree.descendants(region, cst.Return) if model.scope_of(r) is region]
    return any(type(r.value) is cst.Name and r.value.value == name for r in returns)


def _differentiating_callee(model: "SemanticModel", expr: cst.BaseExpression, at: cst.CSTNode) -> bool:
    """Does a function whose result flows into `expr` (in its scope) backward the graph of what it
    returns (`Provenance.differentiated_by_callee`)?"""
    scope = model.scope_of(at)
    values: list[tuple[cst.CSTNode | None, int | None]] = [(expr, None)]
    for name in model.provenance.dependencies(set(names_in(expr)), scope):
        values += [unpacked(b) for b in model.bindings(scope, name) if b.value is not None]
    for value, element in values:
        if value is None:
            continue
        calls = [value] if isinstance(value, cst.Call) else []
        for call in calls + model.tree.descendants(value, cst.Call):
            if model.provenance.differentiated_by_callee(call, element if call is value else None):
                return True
    return False


def _guard(model: "SemanticModel", call: cst.Call, region: cst.CSTNode) -> cst.If | None:
    """The innermost `if` around `call` within `region` (`if not forward_only: loss.backward()`)."""
    for anc in model.tree.ancestors(call):
        if anc is region:
            return None
        if isinstance(anc, cst.If):
            return anc
    return None
