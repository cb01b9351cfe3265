from __future__ import annotations

import re
from functools import cached_property

import libcst as cst

from memlint.analysis.regions.accumulation import Accumulation
from memlint.analysis.syntax.expressions import code, method_name
from memlint.analysis.regions.loops import OPTIMIZER, receiver_name
from memlint.models import Applicability, Severity
from memlint.rules.base import FixSpec, Rule



class ZeroGradInAccumulation(Rule):
    code = "ML014"
    name = "zero-grad-in-accumulation"
    severity = Severity.ERROR
    summary = "`zero_grad()` on every micro-batch discards the accumulated gradients"
    fix_applicability = Applicability.UNSAFE
    needles = (("zero_grad",),)
    what = """
Checks for `zero_grad()` that runs on every iteration of a loop (or every
call of a `training_step`) in which the optimizer steps only under an
accumulation condition (`if (i + 1) % accum_steps == 0: optimizer.step()`)
while `backward()` runs every iteration. Also checks, inside
`with accelerator.accumulate(model):`, for `optimizer.zero_grad()` placed
before the backward pass and for `model.zero_grad()`.

What makes an object decides whether it is an optimizer (`torch.optim`'s
classes, a class of the project deriving from one, also as handed back by
`accelerator.prepare`), a schedule or a model, whatever it is called; only
where nothing in the project makes it does its name (`optimizer`, `net`),
and a model found so is an assumption, shown with `--preview`.

`zero_grad()` under the same condition as `step()`, a step whose condition
also holds its own backward (a GAN's generator updated every `n_critic`
iterations), a step in the other branch of a configuration switch (`if
accum_steps > 1: ... else: zero_grad(); backward(); step()`), the accelerate-prepared
optimizer's `zero_grad()` after `step()` inside `accelerator.accumulate`,
loops that step on every iteration, and a `zero_grad()` once per epoch
before the batch loop are not reported.
"""
    why = """
Gradient accumulation sums the gradients of several micro-batches into
`.grad` before one optimizer step. A `zero_grad()` on every micro-batch
throws that sum away, so each step uses the last micro-batch alone: the
effective batch is `accum_steps` times smaller than configured and the
learning rate no longer matches it, with no error. accelerate issue 616: its
documented `accumulate` example called `optimizer.zero_grad()` first, which
on the sync step clears the gradients accumulated before it; ultralytics PR
11217: an extra `zero_grad()` at the start of each epoch dropped the
gradients of up to `accumulate - 1` batches (24 of 120 batches per epoch in
its example). Severity error: the training silently differs from the one
configured.
"""
    example = """
for i, (x, y) in enumerate(loader):
    optimizer.zero_grad()
    loss = criterion(model(x), y) / accum_steps
    loss.backward()
    if (i + 1) % accum_steps == 0:
        optimizer.step()
"""
    use_instead = """
for i, (x, y) in enumerate(loader):
    loss = criterion(model(x), y) / accum_steps
    loss.backward()
    if (i + 1) % accum_steps == 0:
        optimizer.step()
        optimizer.zero_grad()
"""

    @cached_property
    def accumulation(self) -> Accumulation:
        return Accumulation(self.model)

    def visit_Call(self, node: cst.Call) -> None:
        if method_name(node) != "zero_grad" or not isinstance(node.func, cst.Attribute):
            return
        accumulation = self.accumulation
        accumulate = accumulation.accumulate_block(node)
        if accumulate is not None:
            self._in_accumulate(node, accumulate)
            return
        region = accumulation.region(node)
        if region is None or accumulation.conditional(node, region):
            return
        every = accumulation.steps(region, beside=node)
        steps = [s for s in every if accumulation.same_optimizer(node, s)] or every
        if not steps:
            return
        guards = [accumulation.accumulation_guard(s, region) for s in steps]
        if any(g is None for g in guards) or not accumulation.backward_every_iteration(region):
            return
        if all(accumulation.backward_before_step(g, s) for g, s in zip(guards, steps)):  # type: ignore[arg-type]
            return
        receiver = code(node.func.value)
        where = "iteration of this loop" if isinstance(region, (cst.For, cst.While)) else f"call of `{region.name.value}`"  # type: ignore[union-attr]
        message = (
            f"`{receiver}.zero_grad()` runs on every {where}, but the optimizer steps only when "
            f"`{code(guards[0].test)}`, so each step uses the last micro-batch alone"  # type: ignore[union-attr]
        )
        fix = self._move_into(node, guards[0], region)  # type: ignore[arg-type]
        self.report(node, message, "move `zero_grad()` under the same condition, after `step()`", fix=fix)

    # -- accelerate ----------------------------------------------------------------
    def _holds_model(self, receiver: cst.BaseExpression, at: cst.CSTNode) -> bool | None:
        """Is the receiver of `zero_grad()` a model rather than an optimizer? True or False where
        what made it shows (a module, an optimizer of the library table or of the project, another
        object made here); None where only its name says it is a model (`policy`, `net`)."""
        facts = self.model.module_facts
        if facts.is_module(receiver, at) or facts.holds_module(receiver, at):
            return True
        made = self.model.loops.stepper_kind(receiver, at)
        if made is not None:
            return made == "module"
        last = receiver_name(receiver)
        return None if not OPTIMIZER.search(last) and re.search(r"model|module|net|policy", last, re.I) else False

    def _in_accumulate(self, node: cst.Call, block: cst.With) -> None:
        receiver = node.func.value  # type: ignore[union-attr]
        text = code(receiver)
        wrapped = {code(arg.value) for item in block.items if isinstance(item.item, cst.Call) for arg in item.item.args}
        model = text in wrapped or self._holds_model(receiver, node)
        if model is not False:
            message = (
                f"`{text}.zero_grad()` inside `accumulate(...)` runs on every micro-batch, discarding the "
                "gradients accumulated so far"
            )
            hint = (
                "call `zero_grad()` on the optimizer returned by `accelerator.prepare`: only its `zero_grad()` "
                "skips the steps that do not sync"
            )
            if model is None:  # only its name says it is a model
                assumed = f"`{text}` is a model, as its name says, not an optimizer"
                self.report(node, message, f"{hint} (assumed: {assumed})", assumptions=[assumed])
            else:
                self.report(node, message, hint)
            return
        backwards = [
            call
            for call, _ in self.model.provenance.backward_calls(block.body)
            if (self.model.imports.resolve(call.func) or "") != "torch.autograd.grad"
        ]
        tree = self.model.tree
        if not backwards or tree.order[id(node)] > tree.order[id(backwards[0])]:
            return
        message = (
            f"`{text}.zero_grad()` before the backward pass inside `accumulate(...)` clears, on the step that "
            "syncs, the gradients accumulated over the previous micro-batches"
        )
        fix = self._move_to_end(node, block)
        self.report(node, message, "call `zero_grad()` after `optimizer.step()` (accelerate issue 616)", fix=fix)

    # -- the loop and its step -----------------------------------------------------

    # -- fixes -----------------------------------------------------------------------
    def _statement_line(self, node: cst.Call) -> cst.SimpleStatementLine | None:
        expr = self.model.tree.parent_of(node)
        line = self.model.tree.parent_of(expr) if isinstance(expr, cst.Expr) else None
        if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1:
            block = self.model.tree.parent_of(line)
            if isinstance(block, cst.IndentedBlock) and len(block.body) > 1:
                return line
        return None

    def _move_into(self, node: cst.Call, guard: cst.If, region: cst.CSTNode) -> FixSpec | None:
        line = self._statement_line(node)
        body = region.body  # type: ignore[attr-defined]
        if line is None or not isinstance(guard.body, cst.IndentedBlock) or not isinstance(body, cst.IndentedBlock):
            return None
        receiver = code(node.func.value)  # type: ignore[union-attr]
        already = any(
            method_name(c) == "zero_grad" and code(c.func.value) == receiver  # type: ignore[union-attr]
            for c in self.model.tree.descendants(guard.body, cst.Call)
        )
        new_body = body.visit(_Move(line, guard.body, None if already else line))
        return FixSpec(Applicability.UNSAFE, "Move `zero_grad()` under the step condition", ((body, new_body),))

    def _move_to_end(self, node: cst.Call, block: cst.With) -> FixSpec | None:
        line = self._statement_line(node)
        if line is None or not isinstance(block.body, cst.IndentedBlock):
            return None
        new_body = block.body.visit(_Move(line, block.body, line))
        return FixSpec(Applicability.UNSAFE, "Move `zero_grad()` after the optimizer step", ((block.body, new_body),))


class _Move(cst.CSTTransformer):
    """Remove the statement `line` and append `moved` (when given) to the block `target`."""

    def __init__(self, line: cst.SimpleStatementLine, target: cst.IndentedBlock, moved: cst.SimpleStatementLine | None) -> None:
        self.line = line
        self.target = target
        self.moved = moved

    def leave_SimpleStatementLine(self, original_node, updated_node):  # noqa: N802 - libcst's names
        if original_node is self.line:
            return cst.RemoveFromParent()
        return updated_node

    def leave_IndentedBlock(self, original_node, updated_node):  # noqa: N802
        if original_node is self.target and self.moved is not None:
            kept = [line for line in self.moved.leading_lines if line.comment is not None]
            return updated_node.with_changes(body=[*updated_node.body, self.moved.with_changes(leading_lines=kept)])
        return updated_node
