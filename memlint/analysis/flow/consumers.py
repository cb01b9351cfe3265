"""What the code after a loop does with what the loop collected.

A container filled once per iteration keeps every element's graph until it
dies. That is by design when, right after the loop, the elements are reduced
into one value whose graph is needed (a rollout's log-probs stacked into the
loss that is backwarded; a chunked forward's outputs concatenated into the
returned activation) and the container itself is dropped. It is a leak when
the container escapes: returned as it is, passed to an arbitrary call
(`return self.training_epoch_end(outputs)`), stored elsewhere. So the
question is not whether a consumer exists, but what it does with the elements.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from memlint.analysis.library import CONCATENATIONS, HOST_ONLY_METHODS, NUMPY_CONCATENATIONS
from memlint.analysis.syntax.expressions import method_name, names_in, root_name, same_code, target_names

if TYPE_CHECKING:
    from memlint.analysis.model import SemanticModel
    from memlint.analysis.syntax.scopes import Scope

# Calls that turn a sequence of tensors into one tensor (or a number).
_REDUCERS = CONCATENATIONS | {"torch.sum", "torch.mean", "torch.logsumexp", "sum", "len", "float", "max", "min"}
# Uses of the container that neither consume nor keep its elements.
_NEUTRAL_METHODS = {"clear", "__len__"}
_ITERATORS = {"zip", "enumerate", "reversed", "range"}


def consumed_after(model: "SemanticModel", container: cst.BaseExpression, region: cst.CSTNode, reduced: bool) -> bool:
    """Is what `region` collected into `container` reduced, right after it, into
    a value that is backwarded or returned, with the container itself dropped?

    `reduced`: the container already is one value (`total = total + loss`)."""
    root = root_name(container)
    if root is None or root == "self" or not isinstance(container, cst.Name):
        return False
    scope = model.scope_of(region)
    collected: set[str] = set() if reduced else {root}
    values: set[str] = {root} if reduced else set()
    consumed = False
    for stmt in _statements_after(model, region, scope):
        if isinstance(stmt, cst.For):
            # `for loss in losses:` / `for i, loss in enumerate(losses):` take the elements out
            if set(names_in(stmt.iter)) & collected:
                values |= set(target_names(stmt.target))
            continue
        mentioned = set(names_in(stmt))
        if not mentioned & (collected | values):
            continue
        if collected & mentioned and _escapes(model, stmt, collected):
            return False  # the elements leave with the container
        if (
            collected & mentioned
            and not model.loops.trains_each_iteration(region)
            and _reduces(model, stmt, collected)
            and model.provenance.uses_with_history(stmt, collected)
        ):
            # concatenated into one value whose graph flows on (a chunked or tiled forward:
            # `row.append(torch.cat(tiles))`), the list dropped: bounded by the chunks, needed by design
            consumed = True
        if isinstance(stmt, cst.Return):
            # returned for the caller's backward (a rollout, a chunked forward); a loop that
            # backwards every iteration returns a running statistic, not a graph anyone needs
            if (
                stmt.value is not None
                and not model.loops.trains_each_iteration(region)
                and model.provenance.uses_with_history(stmt.value, values | collected)
                and _callers_may_backward(model, scope)
            ):
                consumed = True
            continue
        backwarded = {n for _, exprs in model.provenance.backward_calls(stmt) for e in exprs for n in names_in(e)}
        if backwarded & values:
            consumed = True
            continue
        if isinstance(stmt, (cst.Assign, cst.AugAssign, cst.AnnAssign)) and stmt.value is not None:
            targets = [t.target for t in stmt.targets] if isinstance(stmt, cst.Assign) else [stmt.target]
            if model.provenance.uses_with_history(stmt.value, values | collected):
                for target in targets:
                    for name in target_names(target):
                        collected.discard(name)  # `enc = torch.cat(enc)`: the name now holds the result
                        values.add(name)
                    if type(target) is cst.Subscript and type(target.value) is cst.Name and target.value.value != "self":
                        values.add(target.value.value)  # `losses["feat"] = feat`: the mapping now holds it
    return consumed


def _callers_may_backward(model: "SemanticModel", func: "Scope") -> bool:
    """May a caller of `func` differentiate what it returns? Not when every call of it is in this
    file and binds the result to names that its scope never backwards (`val_loss = self.validation(...)`,
    compared and logged)."""
    if not isinstance(func, cst.FunctionDef):
        return True
    sites = model.call_sites().get(func, ())
    if not sites:
        return True  # called from elsewhere, or passed on: its callers are unknown
    for site in sites:
        statement = next((a for a in model.tree.ancestors(site) if isinstance(a, (cst.Assign, cst.AnnAssign))), None)
        if statement is None or statement.value is not site:
            return True  # used in an expression, returned, handed on: follow no further
        targets = [t.target for t in statement.targets] if isinstance(statement, cst.Assign) else [statement.target]
        names = {n for t in targets for n in target_names(t)}
        caller = model.scope_of(site)
        if not names or names & model.provenance.backwarded_names(caller):
            return True
        for call in model.tree.descendants(caller, cst.Call):
            if model.local_callees(call) and any(set(names_in(a.value)) & names for a in call.args):
                return True  # handed to another function of the file: it may differentiate it
    return False


def _reduces(model: "SemanticModel", stmt: cst.CSTNode, collected: set[str]) -> bool:
    """Does `stmt` pass a collected container to a reducer (`torch.cat(chunks)`)?"""
    tree = model.tree
    for name in tree.descendants(stmt, cst.Name):
        parent = tree.parent_of(name)
        if name.value in collected and isinstance(parent, cst.Arg) and parent.value is name:
            call = tree.parent_of(parent)
            if isinstance(call, cst.Call) and model.imports.resolve(call.func) in _REDUCERS - {"len", "float"}:
                return True
    return False


def _escapes(model: "SemanticModel", stmt: cst.CSTNode, collected: set[str]) -> bool:
    """Does `stmt` use a collected container other than by reducing it?"""
    tree = model.tree
    for name in tree.descendants(stmt, cst.Name):
        if name.value not in collected:
            continue
        parent = tree.parent_of(name)
        if (isinstance(parent, cst.Attribute) and parent.attr is name) or (isinstance(parent, cst.Arg) and parent.keyword is name):
            continue  # `x.outputs`, `f(outputs=...)`: another name
        if isinstance(parent, cst.Attribute) and parent.value is name:
            call = tree.parent_of(parent)
            if isinstance(call, cst.Call) and call.func is parent and method_name(call) in _NEUTRAL_METHODS:
                continue
            return True  # `outputs.pop()`, `outputs[0]`: handed on
        if isinstance(parent, cst.AssignTarget):
            continue  # rebound: the old container is dropped
        if isinstance(parent, cst.Subscript) and parent.value is name:
            if isinstance(stmt, cst.Assign) and stmt.value is parent:
                continue  # `loss = losses[i]`: one element taken out, followed as a value
            return True
        if isinstance(parent, cst.Arg):
            call = tree.parent_of(parent)
            resolved = model.imports.resolve(call.func) if isinstance(call, cst.Call) else None
            if resolved in _REDUCERS or resolved in _ITERATORS:
                continue
            return True  # passed to an arbitrary call: whatever it does, the elements go with it
        if isinstance(parent, cst.CompFor) and parent.iter is name:
            continue  # iterated over
        if isinstance(parent, cst.Element):
            grand = tree.parent_of(parent)
            if isinstance(grand, (cst.List, cst.Tuple)) and isinstance(tree.parent_of(grand), cst.Arg):
                call = tree.parent_of(tree.parent_of(grand))
                if isinstance(call, cst.Call) and model.imports.resolve(call.func) in _REDUCERS:
                    continue  # torch.cat([prev, *chunks])
        return True  # returned as it is, stored, yielded, ...
    return False


def joined_by_numpy(model: "SemanticModel", container: cst.BaseExpression, statement: cst.CSTNode) -> bool:
    """Is the list that `statement` collects into (a name, or a name's entry under a literal key:
    `results["t-start"]`) handed whole, later in its function and still holding what was collected (no
    binding of its name in between), to NumPy's concatenation (`np.concatenate(encoded)`), or to torch's
    whose result is read with `.numpy()` at once (`torch.cat(results["t-start"]).numpy()`)? NumPy
    converts each element to an array, and `Tensor.numpy()` reads the join, which keeps its inputs'
    device: a CUDA tensor refuses both, so the elements are host values, or the program stops there."""
    root = container
    if type(root) is cst.Subscript and len(root.slice) == 1 and type(root.slice[0].slice) is cst.Index:
        if type(root.slice[0].slice.value) is not cst.SimpleString:
            return False
        root = root.value
    if type(root) is not cst.Name:
        return False
    tree, provenance = model.tree, model.provenance
    scope = model.scope_of(statement)
    collected = {id(b.node) for b in provenance.reaching_bindings(scope, root.value, statement)}
    for call in tree.descendants(scope, cst.Call):
        first = call.args[0].value if call.args else None
        if first is None or not same_code(first, container):
            continue
        joined = model.imports.resolve(call.func)
        if (
            (joined in NUMPY_CONCATENATIONS or (joined in CONCATENATIONS and _read_on_host(model, call)))
            and tree.is_after(call, statement)
            and model.scope_of(call) is scope
            and {id(b.node) for b in provenance.reaching_bindings(scope, root.value, call)} == collected
        ):
            return True
    return False


def _read_on_host(model: "SemanticModel", value: cst.BaseExpression) -> bool:
    """Is `value` read at once by a method that refuses a CUDA tensor (`torch.cat(parts).numpy()`)?"""
    attribute = model.tree.parent_of(value)
    if type(attribute) is not cst.Attribute or attribute.value is not value or attribute.attr.value not in HOST_ONLY_METHODS:
        return False
    call = model.tree.parent_of(attribute)
    return type(call) is cst.Call and call.func is attribute and not call.args


def _statements_after(model: "SemanticModel", region: cst.CSTNode, scope: "Scope") -> list[cst.CSTNode]:
    tree = model.tree
    result = []
    for stmt_type in (cst.Return, cst.Expr, cst.Assign, cst.AugAssign, cst.AnnAssign, cst.For):
        for stmt in tree.descendants(scope, stmt_type):
            if tree.is_after(stmt, region) and model.scope_of(stmt) is scope:
                result.append(stmt)
    result.sort(key=lambda s: tree.order[id(s)])
    return result
