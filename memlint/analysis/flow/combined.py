"""Which collected values are later combined with each other.

A fix that moves a collected value off the device must move every value it
is later combined with, or none: `torch.cat(all_logits)` compared with
`torch.cat(all_labels)` fails with "Expected all tensors to be on the same
device" when only one of the lists was moved to the CPU. Two stores of one
loop are *partners* when, after the loop and in the same function, a single
statement reads a value derived from each container (names assigned from
expressions that read the container, followed transitively: `logits =
torch.cat(all_logits)`, `top5 = logits.topk(5).indices`, then `top5[:, 0] ==
labels`).
"""

from __future__ import annotations

import libcst as cst

from memlint.analysis.syntax.expressions import names_in, root_name
from memlint.analysis.regions.loops import Store


def _small_statements(model, scope: cst.CSTNode, after: cst.CSTNode) -> list[cst.CSTNode]:
    """Statements of `scope` that come after `after`, in source order (compound headers included)."""
    tree = model.tree
    found = []
    for kind in (cst.Assign, cst.AugAssign, cst.AnnAssign, cst.Expr, cst.Return, cst.If, cst.While, cst.For, cst.With):
        for node in tree.descendants(scope, kind):
            if tree.is_after(node, after) and model.scope_of(node) is scope:
                found.append(node)
    return sorted({id(n): n for n in found}.values(), key=lambda n: tree.order[id(n)])


def _reads(statement: cst.CSTNode) -> set[str]:
    if isinstance(statement, cst.Assign):
        return set(names_in(statement.value))
    if isinstance(statement, cst.AugAssign):
        return set(names_in(statement.value)) | set(names_in(statement.target))
    if isinstance(statement, (cst.If, cst.While)):
        return set(names_in(statement.test))
    if isinstance(statement, cst.For):
        return set(names_in(statement.iter))
    if isinstance(statement, cst.With):
        return set().union(*(set(names_in(item.item)) for item in statement.items))
    return set(names_in(statement))


def _targets(statement: cst.CSTNode) -> set[str]:
    if isinstance(statement, cst.Assign):
        return set().union(*(set(names_in(t.target)) for t in statement.targets))
    if isinstance(statement, cst.AugAssign):
        return set(names_in(statement.target))
    return set()


def partners(model, store: Store, region: cst.CSTNode, stores: list[Store]) -> list[Store]:
    """The stores among `stores` (other stores of `region`) whose containers are
    combined with `store`'s after `region`, in the same function."""
    own = root_name(store.container)
    if own is None or own == "self" or isinstance(region, cst.FunctionDef):
        return []
    scope = model.scope_of(store.statement)
    statements = _small_statements(model, scope, region)
    if not statements:
        return []
    others = {root_name(s.container): s for s in stores if s is not store and root_name(s.container) not in (None, "self", own)}
    derived = {name: {name} for name in [own, *others]}
    for statement in statements:
        reads, targets = _reads(statement), _targets(statement)
        touched = [name for name, names in derived.items() if reads & names]
        if own in touched and any(name != own for name in touched):
            return [others[name] for name in touched if name != own]
        for name in touched:
            derived[name] |= targets
        for name in derived:
            if name not in touched:
                derived[name] -= targets  # rebound to something else
    return []


def loop_stores(model, region: cst.CSTNode) -> list[Store]:
    """Every store statement inside `region`."""
    found = []
    for kind in (cst.Expr, cst.Assign, cst.AugAssign):
        for statement in model.tree.descendants(region, kind):
            s = model.loops.store_of(statement)
            if s is not None:
                found.append(s)
    return found


def returned_after(model, store: Store, region: cst.CSTNode) -> bool:
    """Does a value derived from `store`'s container reach a `return` of its function after `region`?"""
    own = root_name(store.container)
    if own is None:
        return False
    scope = model.scope_of(store.statement)
    names = {own}
    for statement in _small_statements(model, scope, region):
        reads = _reads(statement)
        if reads & names:
            if isinstance(statement, cst.Return):
                return True
            names |= _targets(statement)
    return False
