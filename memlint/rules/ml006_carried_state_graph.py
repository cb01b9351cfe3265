from __future__ import annotations

import libcst as cst

from memlint.analysis.syntax.expressions import code, method_name, names_in, reads_as_name, target_names
from memlint.analysis.regions.grad import Grad
from memlint.models import Applicability, Severity
from memlint.rules.base import FixSpec, Rule, detach

class CarriedStateGraph(Rule):
    code = "ML006"
    name = "carried-state-graph"
    severity = Severity.ERROR
    summary = "A tensor from iteration k is fed into iteration k+1 of a training loop without `.detach()`"
    fix_applicability = Applicability.UNSAFE
    # (`Module`: a module that keeps its state on `self`, trained in another file)
    needles = (("backward", "autograd.grad", "detach", "item", "argmax", "numpy", "Module"),)
    what = """
Checks for state that a training loop carries from one iteration into the
next (an RNN hidden state: `out, hidden = rnn(x, hidden)`) without detaching
it, usually together with `backward(retain_graph=True)` to silence the
"Trying to backward through the graph a second time" error. With
`retain_graph=True` in the loop, a state unpacked from any call whose other
results are backwarded counts too (`logits, state = model.step(x, state)`). A module that keeps its state on
`self` between forwards (`out, self.hidden = self.rnn(x, self.hidden)`, or
through a name of its own: `state = self._memory` ... `self._memory = state`)
carries it too, where its file or another file of the project differentiates.
A rollout or generation loop run with grad on that never differentiates, and
whose model outputs only end as numbers or go back into its model runs,
carries state too: a model output that a model run of the loop reads in the
next step (`_, posterior = rssm.representation(obs, h)`, then
`h = rssm.recurrent(posterior, action, h)`) chains every step's graph to the
last until the loop ends.

A helper of the file that the loop hands the state detaches it by what its
body does, whatever it is called: it detaches in place (`h.detach_()`), or
returns the state detached and the loop binds the result (`hidden =
repackage_hidden(hidden)`); a result dropped detaches nothing. Only a helper
defined out of sight is taken at its name (`detach_state`, `repackage_hidden`).
"""
    why = """
The state links each iteration's graph to the previous one, so nothing is ever
freed: the graph, and with `retain_graph=True` every saved activation, of the
whole history stays alive and memory grows every iteration until the run
dies (pytorch issue 2198: a hidden state carried through 10000 steps).
"""
    example = """
hidden = model.init_hidden(batch_size)
for x, y in loader:
    out, hidden = model(x, hidden)
    loss = criterion(out, y)
    loss.backward(retain_graph=True)
    optimizer.step()
"""
    use_instead = """
hidden = model.init_hidden(batch_size)
for x, y in loader:
    hidden = hidden.detach()  # truncated backpropagation through time
    out, hidden = model(x, hidden)
    loss = criterion(out, y)
    loss.backward()
    optimizer.step()
"""

    def visit_Assign(self, node: cst.Assign) -> None:
        model = self.model
        call = node.value
        if len(node.targets) != 1 or type(call) is not cst.Call:
            return
        target = node.targets[0].target
        attributes = self._self_attributes(target)
        if not self._may_feed_back(call, target):
            if not attributes and type(target) in (cst.Name, cst.Tuple) and model.enclosing_loops(node):
                self._check_rollout_state(node, model.enclosing_loops(node)[0])
            return
        # state kept on `self` through a name of the method's own (`state = self._memory` ... `self._memory = state`)
        aliases = [] if attributes else model.carried.self_state_aliases(node)
        loops = model.enclosing_loops(node) if not attributes and not aliases else []
        if not attributes and not aliases and not (loops and model.loops.has_backward(loops[0])):
            if loops:
                self._check_rollout_state(node, loops[0])
            return  # state carried by a name needs a loop that differentiates, or one that wants no graph
        differentiated = self._differentiated_call(node, target)
        if not (model.provenance.is_module_call(call) or model.provenance.carries_history(call, node) or differentiated):
            return
        if model.loops.store_of(node) is not None or model.grad_state(node) is not Grad.ON:
            return  # `t = torch.cat([t, v])` accumulates: retained-graph (ML001) reports it
        if attributes:
            self._check_module_state(node, [(a.value, code(a.value)) for a in call.args if code(a.value) in attributes])
            return
        if aliases:
            self._check_module_state(aliases[0][2], [(arg, attr) for arg, attr, _ in aliases])
            return
        bound = set(target_names(target))
        fed_back = [
            a.value
            for a in call.args
            if set(names_in(a.value)) & bound
            # a state passed on as it is (`state`, not `state.detach()`) from a differentiated call
            and ((differentiated and type(a.value) is cst.Name) or model.provenance.carries_history(a.value, node))
        ]
        if not fed_back:
            return
        loop = loops[0]
        state = sorted(bound & set(n for a in fed_back for n in names_in(a)))
        state = [n for n in state if self._from_previous_iteration(n, loop, node)]
        if not state or any(model.carried.detached_in(name, loop, node) for name in state):
            return
        fed_back = [a for a in fed_back if set(names_in(a)) & set(state)]
        self._report(node, loop, state, fed_back)

    def _check_rollout_state(self, node: cst.Assign, loop: cst.CSTNode) -> None:
        """A loop that never differentiates, with grad on: a model output this statement binds that a
        model run of the loop reads in the next step carries its graph there (`analysis/regions/carried.py`)."""
        state = self.model.carried.rollout_state(node)
        if state:
            self._report(node, loop, state, [], rollout=True)

    def _may_feed_back(self, call: cst.Call, target: cst.BaseExpression) -> bool:
        """Could `call` be handed back what the assignment binds: an argument that reads a name the
        target binds, or, for a `self.<attr>` target, an argument that is an attribute? Both checks
        below need one (`fed_back`); this one is syntax only, before the costly questions."""
        bound = set(target_names(target))
        if any(set(names_in(a.value)) & bound for a in call.args):
            return True
        elements = [e.value for e in target.elements] if type(target) in (cst.Tuple, cst.List) else [target]
        on_self = any(type(e) is cst.Attribute and reads_as_name(e.value, "self") for e in elements)
        return on_self and any(type(a.value) is cst.Attribute for a in call.args)

    def _differentiated_call(self, node: cst.Assign, target: cst.BaseExpression) -> bool:
        """`logits, state = model.step(frames, state)` in a loop that backwards a loss
        made from `logits` with `retain_graph=True`: whatever the callee is, its
        results are part of the graph, and retain_graph shows that the graph is
        carried into the next iteration (without it the second backward would fail)."""
        model = self.model
        if not isinstance(target, (cst.Tuple, cst.List)):
            return False
        loops = model.enclosing_loops(node)
        if not loops or not model.provenance.retains_graph(loops[0]):
            return False
        reached = model.provenance.dependencies(model.provenance.backwarded_names(loops[0]), model.scope_of(node))
        return bool(set(target_names(target)) & reached)

    def _self_attributes(self, target: cst.BaseExpression) -> list[str]:
        """`self.hidden` targets (`out, self.hidden = ...`), as source text."""
        elements = [e.value for e in target.elements] if isinstance(target, (cst.Tuple, cst.List)) else [target]
        return [code(e) for e in elements if isinstance(e, cst.Attribute) and code(e.value) == "self"]

    def _check_module_state(self, node: cst.Assign, carried: list[tuple[cst.BaseExpression, str]]) -> None:
        """A module that keeps its recurrent state on `self` between calls (a "stateful" RNN) carries it
        from one training step into the next: `carried` holds each argument that hands the state to the
        call, with the `self.<attr>` it is kept in; `node` is the statement that keeps it."""
        model = self.model
        fed_back = [arg for arg, _ in carried]
        if not fed_back or not model.provenance.in_module_class(node):
            return
        if not model.provenance.backward_calls(model.module):
            if not model.project.differentiated_elsewhere():
                return  # nothing in this file or another file of the project trains
            if any(model.project.assigned_elsewhere(attr.rpartition(".")[2]) for _, attr in carried):
                return  # another file sets the state from outside (`rnn.hidden = rnn.init_hidden(n)`): truncation is its own
        state = [attr for _, attr in carried]
        for assign in model.tree.by_type.get(cst.Assign, ()):
            if assign is node or not model.same_self(node, assign):  # another class's `self.hidden`: another object's
                continue
            scope = model.scope_of(assign)
            if type(assign.value) is cst.Name and isinstance(scope, cst.FunctionDef) and assign.value.value in model.params(scope):
                continue  # a setter's (`self._memory = memory`): whatever its callers hand, no detach in sight
            for t in assign.targets:
                if code(t.target) in state and not model.provenance.carries_history(assign.value, assign):
                    if code(assign.value) != "None" or model.enclosing_loops(assign):
                        return  # detached (or reset) somewhere: truncated BPTT
        for c in model.tree.by_type.get(cst.Call, ()):
            if method_name(c) == "detach_" and code(c.func.value) in state and model.same_self(node, c):
                return
        self._report(node, None, state, fed_back)

    def _report(
        self, node: cst.Assign, loop: cst.CSTNode | None, state: list[str], fed_back: list, rollout: bool = False
    ) -> None:
        model = self.model
        retain = model.provenance.retains_graph(loop if loop is not None else model.module)
        names = ", ".join(f"`{n}`" for n in state)
        message = f"{names} carries its autograd graph into the next iteration, linking every step's graph to the last"
        if rollout:
            # nothing backwards through the loop: no graph is wanted, so the fix is to record none
            self.report(
                node,
                f"{names} carries its autograd graph into the next step of a loop that never differentiates: "
                "every step's graph stays linked to the last",
                "run the loop under `with torch.no_grad():` (or detach the state where it is carried)",
            )
            return
        if retain:  # retain_graph=True only hides the "backward through the graph a second time" error
            message = (
                f"{names} carries its autograd graph into the next iteration, and `backward(retain_graph=True)` "
                "keeps every step's activations on the device"
            )
        if loop is None:
            # state on `self` starts as None and may be an (h, c) tuple: no one-line edit fits every case
            hint = f"detach it once per step before use, e.g. `{state[0]} = tuple(h.detach() for h in {state[0]})`"
            self.report(node, message, hint)
            return
        replacements = tuple((arg, self._detached(arg)) for arg in fed_back)
        self.report(
            node,
            message,
            f"detach the state where it is carried: `{state[0]} = {state[0]}.detach()` (truncated BPTT)",
            fix=FixSpec(Applicability.UNSAFE, "Detach the carried state", replacements)
            if all(self._known_tensors(arg, node) for arg in fed_back)
            else None,  # a state not known to be a tensor (an RNN's tuple, a number) gets no `.detach()` edit
        )

    def _known_tensors(self, arg: cst.BaseExpression, at: cst.CSTNode) -> bool:
        """Is every value the fix detaches in `arg` (each element of a literal tuple) known to be a tensor?"""
        if isinstance(arg, (cst.Tuple, cst.List)):
            return all(self._known_tensors(e.value, at) for e in arg.elements)
        return self.model.provenance.value_kind(arg, at) == "tensor"

    def _detached(self, arg: cst.BaseExpression) -> cst.BaseExpression:
        if isinstance(arg, (cst.Tuple, cst.List)):
            return arg.with_changes(
                elements=[e.with_changes(value=self._detached(e.value)) for e in arg.elements]
            )
        if isinstance(arg, cst.Name) and self._is_tuple_state(arg):
            return cst.parse_expression(f"tuple(s.detach() for s in {arg.value})")
        if isinstance(arg, cst.Name) and self._starts_as_none(arg):
            return cst.parse_expression(f"({arg.value}.detach() if {arg.value} is not None else None)")
        return detach(arg)

    def _starts_as_none(self, arg: cst.Name) -> bool:
        """`state = None` before the loop: the first iteration has nothing to detach."""
        scope = self.model.scope_of(arg)
        return any(code(b.value) == "None" for b in self.model.bindings(scope, arg.value) if b.value is not None)

    def _is_tuple_state(self, arg: cst.Name) -> bool:
        """An LSTM-style `(h, c)` state: initialised from a literal tuple or fed to an LSTM."""
        scope = self.model.scope_of(arg)
        if any(isinstance(b.value, cst.Tuple) for b in self.model.bindings(scope, arg.value)):
            return True
        call = self.model.tree.parent_of(self.model.tree.parent_of(arg))
        return isinstance(call, cst.Call) and "lstm" in code(call.func).lower()

    def _from_previous_iteration(self, name: str, loop: cst.CSTNode, carrier: cst.Assign) -> bool:
        """Is `name`, as read by `carrier`, the value the previous iteration left?"""
        model = self.model
        reaching = model.provenance.reaching_bindings(model.scope_of(carrier), name, carrier)
        return not any(
            b.node is not carrier
            and model.tree.contains(loop, b.node)
            and model.tree.order[id(b.node)] < model.tree.order[id(carrier)]
            for b in reaching
        )
