"""Guards that make a statement run on some runs of its step only.

A registration under `if self.handle is None:` (or `hasattr`, or a flag the
branch sets) runs once; one under a test of something the step changes
(`if step == 0:`), a per-call flag, or in an `except` handler runs only
sometimes. Loops over modules inside the step do not count as guards.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from memlint.analysis.syntax.expressions import bool_constant, callee_name, method_name, names_in, target_names
from memlint.analysis.syntax.imports import dotted

if TYPE_CHECKING:
    from memlint.analysis.model import SemanticModel


def runs_sometimes(model: "SemanticModel", node: cst.CSTNode, region: cst.CSTNode) -> bool:
    """Does `node` run only on some runs of `region`: under a once-only guard
    (`if self.handle is None:`), a guard that varies per step (`if step == 0:`),
    a per-call flag, or in an `except` handler? Loops over modules do not count."""
    chain = []
    for anc in model.tree.ancestors(node):
        if anc is region:
            break
        chain.append(anc)
    inner: set[str] = set()
    for anc in chain:
        if type(anc) in (cst.For, cst.CompFor):
            inner.update(target_names(anc.target))
    varying: set[str] | None = None
    for anc in chain:
        if type(anc) in (cst.ExceptHandler, cst.IfExp, cst.BooleanOperation, cst.Lambda, cst.FunctionDef):
            return True
        if type(anc) is not cst.If:
            continue
        if once_guard(model, anc):
            return True
        names = set(names_in(anc.test)) - inner
        if type(region) is cst.FunctionDef:
            if names & (model.params(region) - {"self", "cls"}):
                return True
        else:
            if varying is None:
                varying = model.loops.bound_in(region)
            if names & varying:
                return True
    return False

def once_guard(model: "SemanticModel", branch: cst.If) -> bool:
    """`if self.handle is None: self.handle = ...`, `if not hooked: ...; hooked = True`."""
    tree = model.tree
    tested = {dotted(n) for t in (cst.Name, cst.Attribute) for n in tree.descendants(branch.test, t)}
    tested.discard(None)
    if tested & {"hasattr", "getattr"}:
        return True
    for call in tree.descendants(branch.test, cst.Call):
        if callee_name(call) in ("hasattr", "getattr"):
            return True
    for comparison in tree.descendants(branch.test, cst.Comparison):
        for c in comparison.comparisons:
            if isinstance(c.operator, (cst.Is, cst.IsNot)) and dotted(c.comparator) == "None":
                return True
    written: set[str] = set()
    for node_type in (cst.Assign, cst.AugAssign, cst.AnnAssign):
        for stmt in tree.descendants(branch.body, node_type):
            targets = [t.target for t in stmt.targets] if isinstance(stmt, cst.Assign) else [stmt.target]
            for target in targets:
                while isinstance(target, cst.Subscript):
                    target = target.value
                text = dotted(target)
                if text:
                    written.add(text)
    for call in tree.descendants(branch.body, cst.Call):
        if method_name(call) in ("append", "extend", "add", "update") and dotted(call.func.value):
            written.add(dotted(call.func.value))
    return bool(tested & written)


def never_runs(model: "SemanticModel", node: cst.CSTNode) -> bool:
    """Is `node` in a branch no run takes: the body of `if 0 > 0:` or `if False:`, the `else` of
    `if True:`? (Code switched off by a constant stays in files; nothing it would do happens.)"""
    inner: cst.CSTNode = node
    for anc in model.tree.ancestors(node):
        if type(anc) is cst.If:
            value = constant_truth(anc.test)
            if (value is False and inner is anc.body) or (value is True and inner is anc.orelse):
                return True
        inner = anc
    return False


def constant_truth(test: cst.BaseExpression) -> bool | None:
    """The truth of a test written of constants alone (`False`, `0`, `0 > 0`), None otherwise."""
    value = bool_constant(test)
    if value is not None or type(test) is not cst.Comparison or len(test.comparisons) != 1:
        return value
    left, right = test.left, test.comparisons[0].comparator
    if type(left) is not cst.Integer or type(right) is not cst.Integer:
        return None
    a, b = int(left.value, 0), int(right.value, 0)
    compare = {cst.GreaterThan: a > b, cst.LessThan: a < b, cst.GreaterThanEqual: a >= b,
               cst.LessThanEqual: a <= b, cst.Equal: a == b, cst.NotEqual: a != b}
    return compare.get(type(test.comparisons[0].operator))
