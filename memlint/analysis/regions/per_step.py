"""Does a node run once per step (per batch, per forward call)? And in which region?

Used by rules about things that must happen once but are written where they run
every step: hooks registered per step (ML008), anomaly mode entered per step
(ML009). Each rule brings its own idea of what makes a node conditional.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

import libcst as cst


if TYPE_CHECKING:
    from memlint.analysis.model import SemanticModel

# region, node -> does `node` run only on some runs of `region`?
Conditional = Callable[[cst.CSTNode, cst.CSTNode], bool]


@dataclass(frozen=True)
class StepContext:
    """`node` runs once per run of `region` (a step loop or a per-step function); `where` says so in words."""

    region: cst.CSTNode
    where: str


def step_context(
    model: "SemanticModel", node: cst.CSTNode, conditional: Conditional, depth: int = 2
) -> StepContext | None:
    """The innermost step region `node` runs in once per step, or None.

    A step region is a loop over batches (training, evaluation, or anything that
    backwards), or a function the framework calls per batch or per forward
    (`forward` of a class, `training_step`, ...), or a function of this file that
    takes one optimisation step, or (up to `depth` calls away) a function called
    from one of these.
    """
    loops = model.loops
    for loop in model.enclosing_loops(node):
        if loops.is_step_loop(loop):
            if conditional(node, loop):
                return None
            if loops.is_training_loop(loop):
                kind = "training loop"
            elif loops.is_eval_loop(loop):
                kind = "evaluation loop"
            else:
                kind = "loop over batches"
            return StepContext(loop, f"every iteration of this {kind}")
    scope = model.scope_of(node)
    if not isinstance(scope, cst.FunctionDef) or conditional(node, scope):
        return None
    name = scope.name.value
    if name == "forward" and model.enclosing_class(scope) is not None:
        return StepContext(scope, "every forward call (in `forward`)")
    if model.loops.per_step_method(scope):
        return StepContext(scope, f"every step (in `{name}`)")
    if loops.steps_once(scope) and not _has_training_loop(model, scope):
        return StepContext(scope, f"every training step (in `{name}`)")
    if depth > 0:
        for site in model.call_sites().get(scope, ()):
            outer = step_context(model, site, conditional, depth - 1)
            if outer is not None:
                return StepContext(scope, f"{outer.where.split(' (')[0]} (through `{name}()`)")
    return None


def _has_training_loop(model: "SemanticModel", func: cst.FunctionDef) -> bool:
    """A function that steps once before its own training loop (a sanity check) is not per-step."""
    tree = model.tree
    return any(
        model.loops.is_training_loop(loop)
        for loop_type in (cst.For, cst.While)
        for loop in tree.descendants(func, loop_type)
    )


