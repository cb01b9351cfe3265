"""Gradient accumulation: the loop (or per-step method) around a `zero_grad()`,
the optimizer steps in it, the condition they run under, and whether backward
runs on every iteration.

Gradient accumulation sums several micro-batches' gradients before one
optimizer step: backward runs every iteration, the step only under a condition
(`(i + 1) % accum == 0`, `accelerator.sync_gradients`), or inside
`with accelerator.accumulate(model):`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import libcst as cst

from memlint.analysis.syntax.expressions import code, method_name

if TYPE_CHECKING:
    from memlint.analysis.model import SemanticModel

# An `if` that lets gradients accumulate: `(i + 1) % accum == 0`, `accelerator.sync_gradients`, ...
_ACCUMULATION_TEST = re.compile(
    r"accum|grad_acc|sync_grad|update_freq|iters_to_accumulate|micro_?batch|step_interval", re.IGNORECASE
)

# Exact types (LibCST node classes have no subclasses): isinstance against their ABCs is slow in hot loops.
_NESTING = frozenset({cst.For, cst.While, cst.FunctionDef, cst.Lambda, cst.ClassDef})


class Accumulation:
    def __init__(self, model: "SemanticModel") -> None:
        self.model = model

    def accumulate_block(self, node: cst.Call) -> cst.With | None:
        """The `with accelerator.accumulate(model):` around `node` in its function, if any."""
        for anc in self.model.tree.ancestors(node):
            if isinstance(anc, (cst.FunctionDef, cst.Lambda)):
                return None
            if isinstance(anc, cst.With) and any(
                isinstance(item.item, cst.Call) and method_name(item.item) == "accumulate" and item.item.args
                for item in anc.items
            ):
                return anc
        return None

    def region(self, node: cst.Call) -> cst.CSTNode | None:
        """The innermost loop around `node`, or the training-step method it is in."""
        loops = self.model.enclosing_loops(node)
        if loops:
            return loops[0]
        scope = self.model.scope_of(node)
        if isinstance(scope, cst.FunctionDef) and self.model.loops.train_step_method(scope):
            return scope
        return None

    def conditional(self, node: cst.CSTNode, region: cst.CSTNode) -> bool:
        """Does `node` run on some iterations (or calls) of `region` only?"""
        if isinstance(region, (cst.For, cst.While)):
            return self.model.loops.runs_conditionally(node, region)
        for anc in self.model.tree.ancestors(node):
            if anc is region:
                return False
            if isinstance(anc, (cst.If, cst.IfExp, cst.ExceptHandler, cst.For, cst.While, cst.BooleanOperation)):
                return True
        return False

    def _direct(self, node: cst.CSTNode, region: cst.CSTNode) -> bool:
        """Does `node` run in `region` itself, not in a nested loop or function?"""
        for anc in self.model.tree.ancestors(node):
            if anc is region:
                return True
            if type(anc) in _NESTING:
                return False
        return False

    def steps(self, region: cst.CSTNode, beside: cst.CSTNode | None = None) -> list[cst.Call]:
        """Optimizer steps in `region`: `opt.step()`, `scaler.step(opt)`, or a call
        of a function of this file that steps (`self.optimizer_step()`); given `beside`,
        only those that can run in the same iteration as it (not in the other branch of an
        `if` that holds it)."""
        found = []
        for call in self.model.tree.descendants(region, cst.Call):
            if not self._direct(call, region) or (beside is not None and self._exclusive(call, beside, region)):
                continue
            if self._is_step(call) or self._steps_inside(call):
                found.append(call)
        return found

    def _exclusive(self, a: cst.CSTNode, b: cst.CSTNode, region: cst.CSTNode) -> bool:
        """Do `a` and `b` lie in different branches of one `if` inside `region`?"""
        tree = self.model.tree
        branch_of_b = {}
        child: cst.CSTNode = b
        for anc in tree.ancestors(b):
            if anc is region:
                break
            if isinstance(anc, cst.If):
                branch_of_b[id(anc)] = child
            child = anc
        child = a
        for anc in tree.ancestors(a):
            if anc is region:
                return False
            other = branch_of_b.get(id(anc))
            if other is not None and other is not child and child is not anc.test and other is not anc.test:  # type: ignore[attr-defined]
                return True
            child = anc
        return False

    def _is_step(self, call: cst.Call) -> bool:
        return self.model.loops.is_optimizer_step(call)

    def _steps_inside(self, call: cst.Call) -> bool:
        for func in self.model.local_callees(call):
            for inner in self.model.tree.descendants(func.body, cst.Call):
                if self._is_step(inner) and self._direct(inner, func):
                    return True
        return False

    def same_optimizer(self, zero_grad: cst.Call, step: cst.Call) -> bool:
        receiver = code(zero_grad.func.value)  # type: ignore[union-attr]
        if method_name(step) == "step" and isinstance(step.func, cst.Attribute):
            if code(step.func.value) == receiver:
                return True
            return any(code(arg.value) == receiver for arg in step.args)
        return False

    def accumulation_guard(self, step: cst.Call, region: cst.CSTNode) -> cst.If | None:
        """The outermost `if` around `step` inside `region` whose test lets
        gradients accumulate (a modulo, an accumulation counter, `sync_gradients`) and
        can change from one iteration to the next (`if args.accum_steps > 1:` takes one
        branch for the whole run: a configuration switch, no guard)."""
        guard = None
        child: cst.CSTNode = step
        for anc in self.model.tree.ancestors(step):
            if anc is region:
                return guard
            if isinstance(anc, cst.If) and child is anc.body and _accumulates(anc.test) and self._per_iteration(anc, region):
                guard = anc
            child = anc
        return None

    def _per_iteration(self, guard: cst.If, region: cst.CSTNode) -> bool:
        if isinstance(region, (cst.For, cst.While)):
            return self.model.loops.varies(guard.test, region)
        return True  # a per-step method: its counters live on `self` and change between calls

    def backward_before_step(self, guard: cst.If, step: cst.Call) -> bool:
        """Does `guard` run a backward of its own before `step`? Then the gradients this step
        applies are made under the same condition (a GAN's generator updated every
        `n_critic` iterations), and a backward on every iteration belongs to another loss."""
        tree = self.model.tree
        return any(
            tree.order[id(call)] < tree.order[id(step)]
            for call, _ in self.model.provenance.backward_calls(guard.body)
            if self._direct(call, guard)
        )

    def backward_every_iteration(self, region: cst.CSTNode) -> bool:
        provenance = self.model.provenance
        for call in self.model.tree.descendants(region, cst.Call):
            if not self._direct(call, region) or self.conditional(call, region):
                continue
            if provenance.backwarded_expressions(call) is not None:
                if (self.model.imports.resolve(call.func) or "") != "torch.autograd.grad":
                    return True
            for func in self.model.local_callees(call):
                for inner, _ in provenance.backward_calls(func.body):
                    if self._direct(inner, func) and not self.conditional(inner, func):
                        return True
        return False


def _accumulates(test: cst.BaseExpression) -> bool:
    stack: list[cst.CSTNode] = [test]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Modulo):
            return True
        stack.extend(node.children)
    return bool(_ACCUMULATION_TEST.search(code(test)))
