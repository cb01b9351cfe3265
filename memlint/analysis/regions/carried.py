"""State a loop carries from one step into the next with its autograd graph (ML006, and ML003 asks).

A rollout or decoding loop with grad on that never differentiates (`EvalRegions.spends_outputs`)
records a graph at every model run for nothing: evaluation without `no_grad` (ML003). Where a
model output that one statement binds is read by a model run of the loop in the next step
(`h = rssm.recurrent(posterior, action, h)`), the graphs do not end with their step: each holds
the one before it, and memory grows with every step until the loop ends. That statement is
carried state (ML006), the stronger fact: ML003 leaves it to ML006 and reports the loop's other
model runs, so that one line gets one finding.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import libcst as cst

from memlint.analysis.regions.grad import Grad
from memlint.analysis.syntax.expressions import code, method_name, names_in, reads_as_name, target_names

if TYPE_CHECKING:
    from memlint.analysis.context import FileContext

# A helper that ends a state's history by its name (`repackage_hidden(h)`, `detach_state(s)`).
_DETACHING_HELPER = re.compile(r"detach|repackage", re.IGNORECASE)
# Methods whose result has no autograd history, whatever they are called on.
_ENDS_HISTORY = frozenset({"detach", "item", "tolist"})


class CarriedState:
    def __init__(self, model: "FileContext") -> None:
        self.model = model

    def rollout_state(self, node: cst.Assign) -> list[str]:
        """The names `node` binds to a model's output in a loop that never differentiates, with grad
        on, that a model run of the loop (this one, or one before it) reads in the next step, and
        that the loop never detaches: each step's graph stays linked to the last. [] otherwise."""
        model = self.model
        call = node.value
        if len(node.targets) != 1 or type(call) is not cst.Call:
            return []
        target = node.targets[0].target
        loops = model.enclosing_loops(node)
        if type(target) not in (cst.Name, cst.Tuple) or not loops:
            return []
        loop = loops[0]
        if not model.provenance.is_module_call(call) or not model.eval_regions.spends_outputs(loop):
            return []
        if model.grad_state(node) is not Grad.ON:
            return []
        bound = set(target_names(target)) - {"_"}
        position = model.tree.order[id(node)]
        carried = [
            arg.value
            for run in model.tree.descendants(loop.body, cst.Call)
            # read by its own model run, or one before it in the loop's body: in the next step
            if (run is call or model.tree.order[id(run)] < position) and model.provenance.is_module_call(run)
            for arg in run.args
            if type(arg.value) is cst.Name
            and arg.value.value in bound
            and any(b.node is node for b in model.provenance.reaching_bindings(model.scope_of(run), arg.value.value, run))
        ]
        return sorted({a.value for a in carried if not self.detached_in(a.value, loop, node)})  # type: ignore[attr-defined]

    def self_state_aliases(self, node: cst.Assign) -> list[tuple[cst.BaseExpression, str, cst.Assign]]:
        """The arguments of `node`'s call that hand it state a method keeps on `self` through a name of
        its own: the name reads `self.<attr>` wherever it reaches the call (`state = self._memory`),
        `node` binds it again from the call's results (`out, state = self._net(x, state)`), and the
        method stores that back (`self._memory = state`): [(argument, `self.<attr>` as written, that store)]."""
        model = self.model
        call = node.value
        scope = model.scope_of(node)
        if type(call) is not cst.Call or len(node.targets) != 1 or not isinstance(scope, cst.FunctionDef):
            return []
        bound = set(target_names(node.targets[0].target))
        found = []
        for arg in call.args:
            name = arg.value.value if type(arg.value) is cst.Name else None
            if name not in bound:
                continue
            read = {
                code(b.value) if type(b.value) is cst.Attribute and reads_as_name(b.value.value, "self") else None
                for b in model.provenance.reaching_bindings(scope, name, node)
                if b.node is not node
            }
            attr = read.pop() if len(read) == 1 else None
            stores = [
                store
                for store in model.tree.descendants(scope.body, cst.Assign)
                if attr is not None
                and model.scope_of(store) is scope
                and model.tree.is_after(store, node)
                and type(store.value) is cst.Name
                and store.value.value == name
                and any(code(t.target) == attr for t in store.targets)
            ]
            if stores:
                found.append((arg.value, attr, stores[0]))
        return found

    def carried_statement(self, call: cst.Call) -> bool:
        """Is `call` the model run of a statement that binds rollout state (`rollout_state`)?"""
        statement = self.model.tree.statement_of(call)
        return type(statement) is cst.Assign and statement.value is call and bool(self.rollout_state(statement))

    def detached_in(self, name: str, loop: cst.CSTNode, carrier: cst.Assign) -> bool:
        """Does the loop end `name`'s history somewhere other than at `carrier`: binds it to a value
        without history (`h = h.detach()`, `repackage_hidden(h)`), detaches it in place, or hands it
        to a function of this file that detaches in place (out of sight: a helper named for detaching)?"""
        model = self.model
        scope = model.scope_of(carrier)
        for binding in model.bindings(scope, name):
            if binding.node is carrier or not model.tree.contains(loop, binding.node) or binding.value is None:
                continue
            if not model.provenance.carries_history(binding.value, binding.node):
                return True  # hidden = hidden.detach(), repackage_hidden(hidden), ...
        for call in model.tree.descendants(loop, cst.Call):
            if method_name(call) == "detach_" and name in names_in(call.func):
                return True
            if not any(name in names_in(a.value) for a in call.args):
                continue
            callees = model.local_callees(call)
            if not callees:
                if _DETACHING_HELPER.search(code(call.func)):
                    return True  # named for detaching, and nothing here defines it
                continue
            # a function of this file: its body decides, whatever it is called
            statement = model.tree.parent_of(call)
            rebinds = type(statement) is cst.Assign and statement.value is call and any(name in target_names(t.target) for t in statement.targets)
            if all(self._detaches_in_place(f) or (rebinds and self._returns_detached(f)) for f in callees):
                return True
        return False

    def _detaches_in_place(self, func: cst.FunctionDef) -> bool:
        """Does `func` detach something in place (`h.detach_()`, for each tensor of a state it is handed)?"""
        return any(method_name(c) == "detach_" for c in self.model.tree.descendants(func.body, cst.Call))

    def _returns_detached(self, func: cst.FunctionDef) -> bool:
        """Is every value `func` returns without history, its own calls on the parts of what it is handed
        aside (`return h.detach()` beside `return tuple(repackage_hidden(v) for v in h)`)?"""
        model = self.model
        returns = [r for r in model.tree.descendants(func.body, cst.Return) if model.scope_of(r) is func and r.value is not None]
        leaves = [r.value for r in returns if not self._recurses(func, r.value)]  # type: ignore[arg-type]
        params = set(model.params(func))
        return bool(leaves) and all(
            (type(v) is cst.Call and method_name(v) in _ENDS_HISTORY) or not (params & set(names_in(v)) or model.provenance.carries_history(v, v))
            for v in leaves  # type: ignore[arg-type]
        )

    def _recurses(self, func: cst.FunctionDef, value: cst.BaseExpression) -> bool:
        """Is `value` `func`'s own call, or a tuple or list of its calls over a comprehension?"""
        if type(value) is cst.Call and type(value.func) is cst.Name and value.func.value in ("tuple", "list") and len(value.args) == 1:
            value = value.args[0].value
        if type(value) in (cst.GeneratorExp, cst.ListComp):
            value = value.elt  # type: ignore[attr-defined]
        return type(value) is cst.Call and type(value.func) is cst.Name and value.func.value == func.name.value
