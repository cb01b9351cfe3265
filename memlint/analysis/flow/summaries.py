"""Function summaries: what a function of this file returns and does with its parameters.

A caller asks the summary instead of reading the callee's body: does
`forward_step(model, batch)` return a value with autograd history, and which
element of the tuple it returns has it; does `meter.update(loss)` keep its
argument (appends it to a list on `self`) or make it harmless (`.item()`);
does `add_to_total(total, loss)` pass `total` through and detach `loss`;
does `score(model, x)` run the model it is handed.

Each fact is computed on demand, per function, from the function's body and
the facts of the functions it calls, and memoized: a rule that only asks what
a callee keeps never pays for what it returns. A call back into a function
whose fact is being computed (recursion) reads as the conservative side of
the analysis: nothing with history returned, nothing kept. Lines are looked
up only when a message or a serialised summary needs them.
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable

import libcst as cst

from memlint.analysis.syntax.expressions import (
    call_arg, code, is_literal, literal_parts, method_name, names_in, root_name, target_names,
)
from memlint.analysis.flow.bindings import unpacked
from memlint.analysis.syntax.calls import argument_for, keyword_rest, parameter_names
from memlint.analysis.syntax.imports import dotted
from memlint.analysis.flow.object_kinds import MODULE, annotation_kind, refined_by_annotation
from memlint.analysis.library import (
    BUILTINS, CHECKPOINT_LOADS, CONTAINER_STORES, MAPPING_STORES, MODULE_PLACEMENT, TENSOR_METHODS, named_like_loss,
)
from memlint.analysis.regions.differentiation import differentiates, returns_differentiating
from memlint.analysis.flow.values import NO, YES, Value, join
from memlint.analysis.regions.grad import Grad
from memlint.analysis.tensor_api import TENSOR_API

if TYPE_CHECKING:
    from memlint.analysis.context import FileContext

_PENDING = object()


class Summaries:
    def __init__(self, model: "FileContext") -> None:
        self.model = model
        self._facts: dict[tuple[str, int], Any] = {}
        self._derived: dict[int, dict[str, set[str]]] = {}

    def _fact(self, kind: str, func: cst.FunctionDef, compute: Callable[[cst.FunctionDef], Any]) -> Any:
        """Memoized `compute(func)`; None while it is being computed (a recursive call)."""
        key = (kind, id(func))
        found = self._facts.get(key)
        if found is _PENDING:
            return None
        if key in self._facts:
            return found
        self._facts[key] = _PENDING
        try:
            value = compute(func)
        except BaseException:
            del self._facts[key]
            raise
        self._facts[key] = value
        return value

    # -- the facts ---------------------------------------------------------------
    def returns(self, func: cst.FunctionDef) -> Value | None:
        """What `func` returns (element by element for a returned tuple)."""
        return self._fact("returns", func, self._returns)

    def keeps(self, func: cst.FunctionDef) -> dict[str, tuple[cst.CSTNode, str]] | None:
        """Parameter -> (the statement that keeps it beyond the call, the container as written)."""
        return self._fact("keeps", func, self._keeps)

    def keeps_in_arguments(self, func: cst.FunctionDef) -> dict[str, tuple[cst.CSTNode, str]]:
        """Parameter -> (the statement that stores it, the parameter whose container it is stored
        in): `record(history, value)` appends `value` to the caller's `history`, which lives as
        long as the caller keeps it."""
        return self._fact("keeps_in_arguments", func, self._keeps_in_arguments)

    def keeps_on_host(self, statement: cst.CSTNode) -> bool:
        """Does the callee's store `statement` keep only values moved off the device
        (`store.append(value.cpu())`, `self.scores.append(out.max().item())`)?"""
        store = self.model.loops.store_of(statement)
        return store is not None and all(_on_host(part) for part in literal_parts(store.value))

    def model_run(self, func: cst.FunctionDef) -> tuple[cst.Call, str] | None:
        """A call in `func` itself, with grad on, of a module that `func` is handed as a parameter
        (`model(x)`, or a submodule it looks up, `getattr(model, model.base_model_prefix)(x)`), and
        that parameter."""
        return self._fact("model_run", func, self._model_run) or None

    def evaluates(self, func: cst.FunctionDef) -> list[str]:
        """The parameters that `func` puts in eval mode, itself or wrapped (`model, *_ =
        deepspeed.initialize(model=model, ...); model.eval()`), and never in training mode: a
        function that prepares a model for inference, as harmless to it as `.eval()`."""
        return self._fact("evaluates", func, self._evaluates)

    def returns_evaluated(self, func: cst.FunctionDef) -> bool:
        """Does `func` return only a model it puts in eval mode (`model.eval(); return model`, `return
        Net().eval()`), never switched to training mode nor trained, and whose parameters it does not
        read (`requires_grad = False` on each: a frozen model records no graph)?"""
        return bool(self._fact("returns_evaluated", func, self._returns_evaluated))

    def _returns_evaluated(self, func: cst.FunctionDef) -> bool:
        model = self.model
        returns = [r for r in model.tree.descendants(func.body, cst.Return) if model.scope_of(r) is func]
        if not returns or model.loops.trains(func):
            return False
        switched: dict[str, str] = {}  # name -> the mode method last called on it
        for call in model.tree.descendants(func.body, cst.Call):
            method = method_name(call)
            if method == "train" or (method == "eval" and call.args):
                return False  # switched to training somewhere
            if type(call.func) is cst.Attribute and method in ("eval", "parameters", "named_parameters", "requires_grad_"):
                receiver = code(call.func.value)
                switched[receiver] = "eval" if method == "eval" and switched.get(receiver) != "read" else "read"
        for ret in returns:
            value = ret.value
            while type(value) is cst.Call and method_name(value) in MODULE_PLACEMENT:
                value = value.func.value  # type: ignore[attr-defined]
            if type(value) is cst.Call and method_name(value) == "eval" and not value.args:
                value = value.func.value  # type: ignore[attr-defined]
                if switched.get(code(value)) == "read":
                    return False
                continue
            if value is None or type(value) not in (cst.Name, cst.Attribute) or switched.get(code(value)) != "eval":
                return False
        return True

    def outputs_kept_on_self(self, func: cst.FunctionDef) -> list[tuple[cst.Assign, cst.Attribute]]:
        """Statements of a module's `forward` that keep what it computed from its inputs, with
        their history, on `self` (`self.activity = y`), where `forward` itself never reads the
        attribute back (state it carries into its next call is ML006's)."""
        return self._fact("outputs_kept_on_self", func, self._outputs_kept_on_self)

    def name(self, func: cst.FunctionDef) -> str:
        cls = self.model.enclosing_class(func)
        return f"{cls.name.value}.{func.name.value}" if cls is not None else func.name.value

    def describe(self, node: cst.CSTNode) -> str:
        """`code` (file.py:line), for a message."""
        model = self.model
        return f"`{code(node)}` ({os.path.basename(model.path)}:{model.range_of(node).start.line})"

    # -- what a call of a summarized function gives its caller -------------------
    def call_value(
        self,
        call: cst.Call,
        func: cst.FunctionDef,
        element: int | None,
        arg_history: Callable[[cst.BaseExpression], bool],
    ) -> Value | None:
        """The value `call` returns (element `element` of a returned tuple), its history
        decided by the callee's own returns and by the arguments it passes through
        (`arg_history` says whether an argument carries history at the call)."""
        returns = self.returns(func)
        if returns is None:
            return None
        if element is not None and not returns.elements:
            # returns of several lengths (`return loss, out, metrics` beside `return loss, metrics`): a call
            # unpacked into n names can only have received a return of n elements
            arity = _unpacked_arity(self.model, call)
            by_arity = self._fact("returns_by_arity", func, self._returns_by_arity) if arity else None
            if by_arity and arity in by_arity:
                returns = by_arity[arity]
        value = returns if element is None else returns.element(element)
        if value.history != NO or not value.passes:
            return value
        for param in value.passes:
            arg = self.argument_for(call, func, param)
            if arg is not None and arg_history(arg):
                return Value(history=YES, reason=f"`{code(arg)}` passed through `{self.name(func)}`", kind=value.kind)
        return value

    def backwards_return(self, func: cst.FunctionDef, element: int | None = None) -> bool:
        """Does `func` differentiate the graph of what it returns (element `element` of a returned tuple):
        a value its own backward differentiates, or one computed into it (`out` of `loss = f(out)`, whose
        saved tensors that backward frees)? Not a value of another graph it computes and never backwards
        (`expected = (self.model(obs) * adv).sum()` after the step): that one keeps its activations."""
        provenance = self.model.provenance
        backwarded = provenance.backwarded_names(func)
        if not backwarded:
            return False
        reached = provenance.dependencies(provenance.graph_siblings(backwarded, func), func)
        for ret in self.model.tree.descendants(func.body, cst.Return):
            value = ret.value
            if value is None or self.model.scope_of(ret) is not func:
                continue
            if element is not None and type(value) is cst.Tuple and element < len(value.elements):
                value = value.elements[element].value
            if any(name in reached and self.model.bindings(func, name) for name in names_in(value)):
                return True
        return False

    def argument_for(self, call: cst.Call, func: cst.FunctionDef, param: str) -> cst.BaseExpression | None:
        """The argument of `call` that `func` receives as `param` (see `syntax.calls.argument_for`)."""
        return argument_for(call, func, param)

    def kept_arguments(self, call: cst.Call, func: cst.FunctionDef) -> list[tuple[cst.BaseExpression, str, cst.CSTNode]]:
        """The arguments of `call` that `func` keeps beyond the call, in parameter order:
        (argument, the container it is kept in, the statement that keeps it)."""
        keeps = self.keeps(func)
        if not keeps:
            return []
        found = []
        for param in parameter_names(func):
            arg = self.argument_for(call, func, param) if param in keeps else None
            if arg is not None:
                statement, where = keeps[param]
                found.append((arg, where, statement))
        rest = func.params.star_kwarg
        if type(rest) is cst.Param and rest.name.value in keeps:  # `update(self, **kwargs)` keeps its entries
            statement, where = keeps[rest.name.value]
            found += [(arg, where, statement) for arg in keyword_rest(call, parameter_names(func))]
        return found

    def origin(self, expr: cst.BaseExpression, at: cst.CSTNode) -> str | None:
        """Where `expr`'s value crossed a function, for a message: "`loss` <- `step()` returns
        `metrics["loss"]` (train.py:88)"; None when it was computed here."""
        model = self.model
        base = expr
        while isinstance(base, (cst.Attribute, cst.Subscript)):
            base = base.value
        call, element = (base, None) if isinstance(base, cst.Call) else (None, None)
        if isinstance(base, cst.Name):
            for binding in model.provenance.reaching_bindings(model.scope_of(at), base.value, at):
                value, index = unpacked(binding)
                if isinstance(value, cst.Call) and (model.local_callees(value) or model.provenance.project_callee(value, at)):
                    call, element = value, index
                    break
        if call is None:
            return None
        external = model.provenance.project_callee(call, at)
        if external is not None:  # defined in another file of the project: where its facts come from
            value = model.project.returned(external, element)
            where = external.get("file", "another file")
            if value.history != NO:
                returned = f" `{value.where}`" if value.where else " a value with autograd history"
                return f"`{code(expr)}` <- `{code(call.func)}()` returns{returned} ({where})"
            for param in value.passes:  # what it is handed, through
                arg = model.project.argument(external, call, param)
                if arg is not None and model.provenance.carries_history(arg, at):
                    return f"`{code(expr)}` <- `{code(call.func)}()` returns what it makes of `{code(arg)}` ({where})"
            return None
        for func in model.local_callees(call):
            returns = self.returns(func)
            if returns is None:
                continue
            value = returns if element is None else returns.element(element)
            node = value.notes.get("at")
            if value.history != NO and node is not None:
                return f"`{code(expr)}` <- `{code(call.func)}()` returns {self.describe(node)}"
        return None

    # -- computing the facts -----------------------------------------------------
    def _returns(self, func: cst.FunctionDef) -> Value:
        model = self.model
        grad = model.grad.entry_state(func)
        derived = self.derived(func)
        values = []
        for ret in model.tree.descendants(func.body, cst.Return):
            if ret.value is not None and model.scope_of(ret) is func:
                values.append(self._value_of(ret.value, ret, grad, derived))
        # (an abstract method returns nothing to read: its annotation alone says what overrides return)
        return refined_by_annotation(model, func, join(values) if values else None) or join(values)

    def _returns_by_arity(self, func: cst.FunctionDef) -> dict[int, Value]:
        """What `func` returns to a caller that unpacks n names, by n: its returned tuples of n elements,
        and whatever else it returns that may be a tuple of any length (not a tuple literal, not None)."""
        model = self.model
        grad = model.grad.entry_state(func)
        derived = self.derived(func)
        tuples: dict[int, list[Value]] = {}
        others: list[Value] = []
        for ret in model.tree.descendants(func.body, cst.Return):
            if ret.value is None or model.scope_of(ret) is not func:
                continue
            value = self._value_of(ret.value, ret, grad, derived)
            if value.elements and type(ret.value) is cst.Tuple:
                tuples.setdefault(len(value.elements), []).append(value)
            elif value.kind != "none":
                others.append(value)
        return {n: join(values + others) for n, values in tuples.items()} if len(tuples) > 1 else {}

    def _value_of(self, expr: cst.BaseExpression, at: cst.CSTNode, grad: Grad, derived: dict[str, set[str]]) -> Value:
        if type(expr) is cst.Tuple and not any(type(e) is cst.StarredElement for e in expr.elements):
            parts = [self._value_of(e.value, at, grad, derived) for e in expr.elements]
            whole = join(parts)
            return Value(history=whole.history, kind="sequence", elements=tuple(parts), passes=whole.passes)
        if type(expr) is cst.Name and expr.value == "None":
            return Value(history=NO, kind="none")
        history = NO if grad is Grad.OFF or not self._returned_history(expr, at) else YES
        through = self._returned_through(expr)
        if through is not None and through.elements:
            # `return helper(x)`: the tuple `helper` returns, element by element (what it passes
            # through of its own parameters is decided at this call, so it is not carried on)
            elements = tuple(
                replace(e, passes=()) if history == YES else Value(history=NO, kind=e.kind) for e in through.elements
            )
            return Value(history=history, kind="sequence", elements=elements, where=code(expr), notes={"at": expr})
        # at the return: `err = err.detach().item()` before `return err` passes nothing through
        return Value(
            history=history,
            kind=_syntactic_kind(expr),
            passes=tuple(sorted(self.params_read(expr, derived, (self.model.scope_of(at), at)))),
            where=code(expr),
            notes={"at": expr},
        )

    def _returned_history(self, expr: cst.BaseExpression, at: cst.CSTNode) -> bool:
        """May the returned `expr` carry history? `self.<attr>` that the function itself set from a
        value with history before returning it (`out, self.state = self.rnn(x, self.state)`,
        `return out, self.state`) does; elsewhere an attribute of `self` says nothing."""
        provenance = self.model.provenance
        if not (type(expr) is cst.Attribute and type(expr.value) is cst.Name and expr.value.value == "self"):
            return provenance.carries_history(expr, at)
        tree = self.model.tree
        func = self.model.scope_of(at)
        latest = None
        for assign in tree.descendants(func, cst.Assign):
            if tree.order[id(assign)] > tree.order[id(at)] or self.model.scope_of(assign) is not func:
                continue
            targets = [t.target for t in assign.targets]
            parts = [e.value for t in targets if type(t) is cst.Tuple for e in t.elements] + targets
            if any(type(part) is cst.Attribute and code(part) == code(expr) for part in parts):
                latest = assign
        return latest is not None and provenance.carries_history(latest.value, latest)

    def _returned_through(self, expr: cst.BaseExpression) -> Value | None:
        """What a call of functions of this file returns (`helper(x)`, `optimizer.step(closure)`)."""
        if type(expr) is not cst.Call:
            return None
        model = self.model
        callees = model.local_callees(expr) or model.provenance.run_callables(expr)
        returns = [r for r in (self.returns(f) for f in callees) if r is not None]
        return join(returns) if returns else None

    def differentiated_in(
        self, func: cst.FunctionDef, calls: list[tuple[cst.Call, list[cst.BaseExpression]]]
    ) -> list[str]:
        """The parameters whose own values `func` differentiates by `calls` (its calls that backward,
        with what each differentiates): `loss.backward()`, also after `loss *= mul` or through
        `loss.mean()`. A caller's value handed there is backwarded: it carries history, and the call
        frees its graph."""
        params = _value_parameters(func)
        found: set[str] = set()
        for call, exprs in calls if params else ():
            for expr in exprs:
                found |= self._differentiated_roots(expr, call, func, params, set())
        return [p for p in params if p in found]

    def _differentiated_roots(
        self, expr: cst.BaseExpression, at: cst.CSTNode, func: cst.FunctionDef, params: list[str], seen: set
    ) -> set[str]:
        """The parameters of `func` whose own value `expr` is at `at`, through its bindings and the
        operands a backward differentiates (`Provenance.differentiated_operands`): not what a model
        computes from them (`self.model(batch)` is differentiated, not `batch`), nor a container one of
        whose entries it is."""
        kind = type(expr)
        if kind is cst.Name:
            if (expr.value, id(at)) in seen:
                return set()
            seen.add((expr.value, id(at)))
            tree = self.model.tree
            position = tree.order[id(at)]
            before = [
                b for b in self.model.bindings(func, expr.value)
                if tree.order[id(b.node)] < position and not tree.contains(b.node, at)
            ]
            # `loss *= mul` scales the value it keeps: the parameter's value still reaches `at`
            assigned = [b for b in before if type(b.node) is not cst.AugAssign]
            found = {expr.value} if not assigned and expr.value in params else set()
            for binding in assigned:
                if type(binding.node) in (cst.Assign, cst.AnnAssign, cst.NamedExpr) and binding.value is not None:
                    found |= self._differentiated_roots(binding.value, binding.node, func, params, seen)
            return found
        # (not an entry of a container it is handed, `batch["loss"]`: the callee may replace it,
        # and the container itself is no value of the graph)
        provenance = self.model.provenance
        parts = provenance.differentiated_operands(expr, unknown_calls=False)
        roots = [self._differentiated_roots(part, at, func, params, seen) for part in parts]
        if kind is cst.BinaryOperation and type(expr.operator) in (cst.Multiply, cst.MatrixMultiply):  # type: ignore[attr-defined]
            # `(kl_grad * p).sum()`: a product whose other factor carries history is differentiated
            # through that factor; the parameter may be a constant (a direction, a weight)
            if any(not r and provenance.carries_history(part, at) for part, r in zip(parts, roots)):
                return set()
        return {p for r in roots for p in r}

    def _keeps(self, func: cst.FunctionDef) -> dict[str, tuple[cst.CSTNode, str]]:
        model = self.model
        if not self._stores_beyond_call(func):
            return {}  # (asked of every function the project exports: most store nothing that outlives them)
        derived = self.derived(func)
        keeps: dict[str, tuple[cst.CSTNode, str]] = {}
        if len(derived) == 0:
            return keeps
        # run only without grad by its callers: it still keeps what it is handed (device outputs,
        # ML005); whether that has a graph is decided at each call
        callers_without_grad = model.grad.entry_state(func) is Grad.OFF
        for kind in (cst.Expr, cst.Assign, cst.AugAssign, cst.Return):
            for statement in model.tree.descendants(func.body, kind):
                if model.scope_of(statement) is not func or not any(name in derived for name in names_in(statement)):
                    continue
                if model.grad_state(statement) is Grad.OFF and not callers_without_grad:
                    continue  # a `no_grad` of the callee's own: what it keeps has no graph
                store = model.loops.store_of(statement)
                if store is None or not self._outlives_call(store.container, func):
                    continue
                for param in self.params_read(store.value, derived, at=(func, statement)):
                    keeps.setdefault(param, (statement, code(store.container)))
        return keeps

    def _stores_beyond_call(self, func: cst.FunctionDef) -> bool:
        """Does `func` write into something that outlives its call (`self.x...`, a module global),
        as far as its syntax shows?"""
        model = self.model
        for kind in (cst.Expr, cst.Assign, cst.AugAssign, cst.Return):
            for statement in model.tree.descendants(func.body, kind):
                if kind in (cst.Expr, cst.Return):  # a method called (`return self.evaluate(x)`) may keep
                    call = statement.value
                    targets = [call.func.value] if type(call) is cst.Call and type(call.func) is cst.Attribute else []
                elif kind is cst.Assign:
                    targets = [t.target for t in statement.targets]
                else:
                    targets = [statement.target]
                if any(self._outlives_call(t, func) for t in targets):
                    return True
        return False

    def _outputs_kept_on_self(self, func: cst.FunctionDef) -> list[tuple[cst.Assign, cst.Attribute]]:
        model = self.model
        if not model.loops.is_module_forward(func) or model.grad.entry_state(func) is Grad.OFF:
            return []
        found = []
        for assign in model.tree.descendants(func.body, cst.Assign):
            target = assign.targets[0].target if len(assign.targets) == 1 else None
            if not (isinstance(target, cst.Attribute) and root_name(target) == "self" and isinstance(target.value, cst.Name)):
                continue
            if model.scope_of(assign) is not func or model.grad_state(assign) is Grad.OFF:
                continue
            if not (model.provenance.carries_history(assign.value, assign) or model.provenance.from_inputs(assign.value, func)):
                continue
            if not self._computed_here(assign.value, assign, func):
                continue  # an input stored as it came (`self.strides = strides`): the caller's to keep
            attribute = code(target)
            if any(code(a) == attribute for a in model.tree.descendants(func.body, cst.Attribute) if a is not target):
                continue
            found.append((assign, target))
        return found

    def _computed_here(
        self, expr: cst.BaseExpression, at: cst.CSTNode, func: cst.FunctionDef, seen: frozenset = frozenset()
    ) -> bool:
        """Is `expr` something `func` computed (a call, an operation), not one of its inputs as it
        came, through the bindings of the names it is?"""
        if not isinstance(expr, cst.Name):
            return not isinstance(expr, cst.Attribute)
        if expr.value in seen:
            return False
        return any(
            b.value is not None and self._computed_here(b.value, b.node, func, seen | {expr.value})
            for b in self.model.provenance.reaching_bindings(func, expr.value, at)
        )

    def _keeps_in_arguments(self, func: cst.FunctionDef) -> dict[str, tuple[cst.CSTNode, str]]:
        model = self.model
        params = model.params(func) - {"self", "cls"}
        found: dict[str, tuple[cst.CSTNode, str]] = {}
        for kind in (cst.Expr, cst.Assign, cst.AugAssign):
            for statement in model.tree.descendants(func.body, kind):
                if model.scope_of(statement) is not func:
                    continue  # kept under any grad mode: the rules decide from what the caller hands over
                store = model.loops.store_of(statement)
                root = root_name(store.container) if store is not None else None
                if store is None or root not in params or model.bindings(func, root):
                    continue
                if isinstance(store.container, cst.Name) and store.kind not in ("append", "subscript"):
                    continue  # `total += value` rebinds the callee's own name: the caller's is untouched
                # (what the parameters derive is asked only here: most functions store into none)
                for param in self.params_read(store.value, self.derived(func)) - {root}:
                    found.setdefault(param, (statement, root))
        return found

    def _model_run(self, func: cst.FunctionDef) -> tuple[cst.Call, str] | bool:
        model = self.model
        params = model.params(func) - {"self", "cls"}
        if not params or model.grad.entry_state(func) is Grad.OFF:
            return False
        for call in model.tree.descendants(func.body, cst.Call):
            if type(call.func) is not cst.Name or model.scope_of(call) is not func:
                continue
            name = call.func.value
            if name in params:
                if model.grad_state(call) is not Grad.OFF and model.provenance.is_module_call(call) and not model.provenance.is_loss_call(call):
                    return call, name
                continue
            param = self._submodule_of(func, name, params, call)
            if param is not None and model.grad_state(call) is not Grad.OFF:
                return call, param
        return False

    def _submodule_of(self, func: cst.FunctionDef, name: str, params: set[str], at: cst.Call) -> str | None:
        """The parameter whose attribute every binding of `name` in `func` looks up by `getattr`
        (`backbone = getattr(model, model.base_model_prefix)`), where the file shows that parameter
        is a module (its annotation, `.eval()`): calling what a module holds runs a part of it."""
        bindings = self.model.bindings(func, name)
        found = {
            b.value.args[0].value.value
            for b in bindings
            if type(b.value) is cst.Call
            and type(b.value.func) is cst.Name
            and b.value.func.value == "getattr"
            and len(b.value.args) >= 2
            and type(b.value.args[0].value) is cst.Name
        }
        if len(found) != 1 or len(bindings) != 1:
            return None
        param = found.pop()
        if param not in params:
            return None
        declared = next((p for p in func.params.params + func.params.kwonly_params if p.name.value == param), None)
        if declared is not None and declared.annotation is not None:
            return param if annotation_kind(self.model, declared.annotation.annotation) == MODULE else None
        return param if self.model.module_facts.is_module(cst.Name(param), at) else None

    def _evaluates(self, func: cst.FunctionDef) -> list[str]:
        model = self.model
        params = [p for p in parameter_names(func) if p not in ("self", "cls")]
        found: set[str] = set()
        for call in model.tree.descendants(func.body, cst.Call):
            if type(call.func) is not cst.Attribute or type(call.func.value) is not cst.Name:
                continue
            if call.func.attr.value == "train":
                return []  # switched to training somewhere: not only prepared for inference
            if call.func.attr.value != "eval" or call.args or model.scope_of(call) is not func:
                continue
            name = call.func.value.value
            if name in params:
                found.add(name)
            for binding in model.bindings(func, name):
                # a wrapper made from the parameter (`model, *_ = deepspeed.initialize(model=model)`)
                if type(binding.value) is cst.Call:
                    found.update(n for n in names_in(binding.value) if n in params)
        return [] if model.loops.trains(func) else sorted(found)

    def derived(self, func: cst.FunctionDef) -> dict[str, set[str]]:
        """Name in `func` -> the parameters whose values it may hold with their history
        (`x = param * 2` derives from `param`; `x = param.detach()` does not)."""
        key = id(func)
        if key in self._derived:
            return self._derived[key]
        model = self.model
        table: dict[str, set[str]] = {p: {p} for p in model.params(func) if p not in ("self", "cls")}
        self._derived[key] = table
        if not table:
            return table
        # (value, the names it reads, the names it binds) of each assignment; whether a value reads
        # a name with its history is asked once, however many rounds the table takes to settle
        assigns = [
            (
                node.value,
                set(names_in(node.value)),
                [n for t in (node.targets if isinstance(node, cst.Assign) else [node]) for n in target_names(t.target)],
            )
            for kind in (cst.Assign, cst.AugAssign, cst.AnnAssign)
            for node in model.tree.descendants(func.body, kind)
            if model.scope_of(node) is func and node.value is not None
        ] + [  # `for name, value in metrics.items()`: the loop's names hold the entries of what it iterates
            (loop.iter, set(names_in(loop.iter)), target_names(loop.target))
            for loop in model.tree.descendants(func.body, cst.For)
            if model.scope_of(loop) is func
        ] + self._filled_by_callees(func)
        reads = model.provenance.reads_with_history
        read: dict[tuple[int, str], bool] = {}
        changed = True
        while changed:
            changed = False
            for index, (value, names, targets) in enumerate(assigns):
                sources: set[str] = set()
                for name in names:
                    if table.get(name):
                        key = (index, name)
                        if key not in read:
                            read[key] = reads(value, {name})
                        if read[key]:
                            sources |= table[name]
                if not sources:
                    continue
                for name in targets:
                    if not sources <= table.setdefault(name, set()):
                        table[name] |= sources
                        changed = True
        return table

    def _filled_by_callees(self, func: cst.FunctionDef) -> list[tuple[cst.BaseExpression, set[str], list[str]]]:
        """(value, the names it reads, [the local name it goes into]) of each call in `func` that stores a
        value in a local container: its own store (`flat.append(v)`, `values.update(kwargs)`), or a function of this file that
        stores one argument in another (`rec(nested, "", flat)`, whose `rec` sets `into[k] = v` for the
        entries of `nest`): the container then holds what the value holds."""
        return self._fact("filled_by_callees", func, self._fills) or []

    def _fills(self, func: cst.FunctionDef) -> list[tuple[cst.BaseExpression, set[str], list[str]]]:
        model = self.model
        found = []
        # `flat.append(g.view(-1))` in a loop over a parameter, or `values = {}` then `values.update(kwargs)`:
        # the container holds what it is handed (a mapping's methods only on a container `func` makes,
        # since a meter has an `update` too)
        for call in model.tree.descendants(func.body, cst.Call):
            func_expr = call.func
            if type(func_expr) is not cst.Attribute or type(func_expr.value) is not cst.Name or model.scope_of(call) is not func:
                continue
            method, name = func_expr.attr.value, func_expr.value.value
            position = CONTAINER_STORES.get(method, MAPPING_STORES.get(method))
            arg = call_arg(call, position) if position is not None else None
            if arg is None or method not in CONTAINER_STORES and not any(
                b.value is not None and model.provenance.value_kind(b.value, b.node) == "container"
                for b in model.bindings(func, name)
            ):
                continue
            found.append((arg.value, set(names_in(arg.value)), [name]))
        for call in model.tree.descendants(func.body, cst.Call):
            if model.scope_of(call) is not func or type(call.func) is not cst.Name:
                continue
            callees = model.local_callees(call)
            # a function defined in `func` is the one its name calls there (`rec` of each of two flatteners)
            callees = [c for c in callees if model.scope_of(c) is func] or callees
            for callee in callees:
                for param, (_, into) in (self.keeps_in_arguments(callee) or {}).items():
                    value, container = self.argument_for(call, callee, param), self.argument_for(call, callee, into)
                    if value is not None and type(container) is cst.Name:
                        found.append((value, set(names_in(value)), [container.value]))
        return found

    def params_read(
        self,
        expr: cst.BaseExpression,
        derived: dict[str, set[str]],
        at: tuple[cst.FunctionDef, cst.CSTNode] | None = None,
    ) -> set[str]:
        """Parameters whose history `expr` may carry (read other than through `.detach()`, `.item()`, ...).
        Given `at` (the function and the statement `expr` is read in), a name that only a history-free
        rebinding reaches there carries none (`v = v.data.sum()`, then `self.sum += v`)."""
        names = {n for n in names_in(expr) if derived.get(n)}
        if not names:
            return set()
        reads = self.model.provenance.reads_with_history
        found: set[str] = set()
        for name in names:
            if reads(expr, {name}) and not (at is not None and self._rebound_without_history(name, derived, *at)):
                found |= derived[name]
        return found

    def _rebound_without_history(
        self, name: str, derived: dict[str, set[str]], func: cst.FunctionDef, at: cst.CSTNode, seen: set[int] | None = None
    ) -> bool:
        """Do only plain assignments reach `name` at `at`, none of whose values reads a parameter's
        history (`v = v.data.sum()`), but for those made where a tensor check of `name` failed? An
        update in place by a value of no history (`v *= 0.5`) keeps what reached it: those decide."""
        seen = set() if seen is None else seen
        reaching = self.model.provenance.reaching_bindings(func, name, at)
        if not reaching or any(name in targets for _, _, targets in self._filled_by_callees(func)):
            return False  # (`flat = {}`, then a helper fills it: what it holds came after the binding)
        provenance = self.model.provenance
        reads = provenance.reads_with_history
        holding = {n for n, params in derived.items() if params}
        for binding in reaching:
            if provenance.made_where_no_tensor(binding, name) or provenance.past_failed_tensor_check(binding, name, at):
                continue  # `elif ...: v = v.sum()` after `if isinstance(v, Variable):`, or the loop's `v` past
                # `if isinstance(v, torch.Tensor): v = v.item()`: no tensor there
            node = binding.node
            if type(node) is cst.AugAssign and not reads(node.value, holding):
                if id(node) not in seen:  # (round a loop's back edge: once)
                    seen.add(id(node))
                    if not self._rebound_without_history(name, derived, func, node, seen):
                        return False
                continue
            simple = (
                type(node) is cst.Assign
                and len(node.targets) == 1
                and type(node.targets[0].target) is cst.Name
                and binding.value is node.value
            )
            if not simple or reads(binding.value, holding):
                return False
        return True

    def _outlives_call(self, container: cst.BaseExpression, func: cst.FunctionDef) -> bool:
        """A container that lives longer than one call of `func`: on `self`, or a module global."""
        root = root_name(container)
        if root in ("self", "cls"):
            return True
        model = self.model
        return bool(root) and not model.bindings(func, root) and root not in model.params(func) and bool(
            model.bindings(model.module, root)
        )


def _syntactic_kind(expr: cst.BaseExpression) -> str:
    """What `expr` is, as far as its syntax shows."""
    if type(expr) in (cst.Dict, cst.DictComp):
        return "mapping"
    if type(expr) in (cst.List, cst.ListComp, cst.Tuple):
        return "sequence"
    if type(expr) in (cst.Integer, cst.Float):
        return "number"
    if type(expr) is cst.Call and type(expr.func) is cst.Name and expr.func.value in ("float", "int", "round"):
        return "number"
    if type(expr) is cst.Call and type(expr.func) is cst.Attribute and expr.func.attr.value == "item":
        return "number"
    return "unknown"


def _on_host(expr: cst.BaseExpression) -> bool:
    """Is `expr` moved off the device by the library calls it ends in (`.cpu()`, `.item()`, `float()`)?"""
    while isinstance(expr, cst.Call):
        func = expr.func
        if isinstance(func, cst.Name):
            return func.value in BUILTINS and BUILTINS[func.value].location == "host"
        if not isinstance(func, cst.Attribute):
            return False
        model = TENSOR_METHODS.get(func.attr.value)
        if model is not None and model.location == "host":
            return True
        if model is None and func.attr.value != "to":
            return False
        expr = func.value
    return False


def _value_parameters(func: cst.FunctionDef) -> list[str]:
    """`func`'s parameters that may be handed a tensor: not `self`, nor one whose default is a
    number, a string or a bool (`mul=1`: a factor a differentiated loss is scaled by)."""
    params = func.params
    return [
        p.name.value
        for p in [*params.posonly_params, *params.params, *params.kwonly_params]
        if p.name.value not in ("self", "cls")
        and not (p.default is not None and type(p.default) in _LITERAL_DEFAULTS)
        and not (type(p.default) is cst.Name and p.default.value in ("True", "False"))
    ]


_LITERAL_DEFAULTS = (cst.Integer, cst.Float, cst.SimpleString, cst.ConcatenatedString, cst.FormattedString, cst.UnaryOperation)


def exported(model: "FileContext") -> dict[str, dict[str, Any]]:
    """What other files of the project may ask of this file's functions, methods and classes,
    for the project's per-file summary (read by `flow.project_facts` in the files that call them):

    - a function or method: what it returns (`returns`, a `Value`: its history, element by element,
      and the parameters it passes through), which arguments it keeps beyond the call (`keeps`,
      in a global or on `self`) or stores in a container it is handed (`keeps_in`), which
      parameters it runs as a model (`runs`), a grad mode it declares for its body (`grad`), whether
      it trains (`trains`: it differentiates, steps or zeroes an optimizer, in its loops too), and,
      for a checkpoint loader, the parameters it hands `torch.load` as file and `map_location` (`loads`),
      and whether all it returns is a module (`returns_module`: one it makes, a submodule it looks up);
      a factory's closure: what calling the function it returns returns (`closure_returns`);
    - a class: whether it is a module (`kind`), the grad mode its `__call__` (or a module's
      `forward`) declares (`call_grad`), whether it can hold no parameter
      (`parameters`: "none", or "plain-arguments": none where its construction hands only literals;
      as far as its file says, with the bases of other files it derives from in `parameter_bases`), the
      attributes of `self` a module's methods read and return values from (`reads_into_returns`:
      what a subclass's `forward` stores there is consumed), whether its `__init__` freezes every
      parameter (`freezes`: true, or the parameter, with its place, that can turn the freeze off),
      whether its methods take gradients on purpose
      (`differentiates`: an explainer, an attack; `takes_gradients` where its methods differentiate
      themselves, not only make inputs require grad), the methods its own loops call once per step (`steps`),
      whether it is a metric whose every `update` appends to list states on the device (`list_states`),
      and what its `step()` does where it derives from an optimizer, a schedule or a scaler of the
      library table (`stepper`);
    - a name bound at module level to a literal: that it is a constant (`constant`); to a class's
      `apply` (`lookup = LookupOp.apply`): the class whose Function its calls apply (`applies`).

    A function with nothing to say still has an entry (`{}`): that the project defines it is a fact,
    so that no other file guesses what it does from its name."""
    tree = model.tree
    summaries = model.summaries
    found: dict[str, dict[str, Any]] = {}
    kinds = model.provenance.class_kinds()
    for cls in tree.by_type.get(cst.ClassDef, ()):
        if tree.parent_of(cls) is model.module:
            entry: dict[str, Any] = {"kind": kinds.get(cls.name.value, "object")}
            if model.model_runs.class_without_grad(cls):
                entry["call_grad"] = "off"
            stepper = model.loops.class_steps_as(cls)
            if stepper not in (None, "other", "module"):  # an optimizer, a schedule, a scaler by its bases
                entry["stepper"] = stepper
            freeze = model.module_facts.construction_freeze(cls) if entry["kind"] == "module" else None
            if freeze is not None:
                entry["freezes"] = freeze
            held = model.model_runs.parameters_held(cls, own=True) if entry["kind"] == "module" else None
            if held is not None:  # what its bases in other files hold, the project index adds
                entry["parameters"] = held
                bases = model.model_runs.project_bases(cls)
                if bases:
                    entry["parameter_bases"] = bases
            read = sorted({attr for _, attr in model.loops.class_reads_into_returns(cls)}) if entry["kind"] == "module" else ()
            if read:
                entry["reads_into_returns"] = read
            if differentiates(model, cls):
                entry["differentiates"] = True
                if differentiates(model, cls, strict=True):  # its own methods differentiate (an attack)
                    entry["takes_gradients"] = True
            runs = model.model_runs.object_runs(cls)
            if runs:  # `model.infer(x)`, `model.predict_step(batch, i)`: what calling the method runs
                entry["object_runs"] = runs
            steps = _step_methods(model, cls)
            if steps:
                entry["steps"] = steps
            if model.metrics.class_grows(cls):  # every `update` appends to list states on the device
                entry["list_states"] = True
            bases = _imported_bases(model, cls)
            if bases:
                entry["bases"] = bases
            local = [b.value.value for b in cls.bases if b.keyword is None and type(b.value) is cst.Name and b.value.value in model.calls.classes]
            if local:  # (the project index follows them to the methods the class inherits within its file)
                entry["local_bases"] = local
            found[cls.name.value] = entry
    for func in tree.by_type.get(cst.FunctionDef, ()):
        cls = model.enclosing_class(func)
        # a function defined at module level, also in a `try:`/`if` block (`try: import apex ... def
        # cross_entropy(...)` with a fallback in the `except`), or a method of such a class
        top = _module_level(model, func) if cls is None else tree.parent_of(cls) is model.module
        if not top:
            continue
        entry = {}
        params = [p for p in parameter_names(func) if p not in ("self", "cls")]
        returns = summaries.returns(func) if func.returns is not None or _returns_a_value(model, func) else None
        if returns is not None and (returns.history != NO or returns.passes or named_like_loss(func.name.value)):
            entry["returns"] = returns.to_json()
            if returns.history != NO and cls is not None and summaries.backwards_return(func):
                entry["backwards_return"] = True  # a training step that returns its loss: a base's loop keeps a skeleton
        keeps = summaries.keeps(func) or {}
        if keeps or (cls is not None and func.name.value == "update"):  # a meter's `update` that keeps nothing says so
            entry["keeps"] = {param: where for param, (_, where) in sorted(keeps.items())}
        grows = sorted(param for param, (statement, _) in keeps.items() if _grows_with(model, statement))
        if grows:  # `self.preds.append(preds)`: one more of what it is handed on every call, where it was
            entry["grows"] = grows
        into = (summaries.keeps_in_arguments(func) or {}) if cls is None else {}
        if into:  # `record(history, value)`: stores `value` in the caller's `history`
            entry["keeps_in"] = {param: container for param, (_, container) in sorted(into.items())}
        if model.provenance.returns_scalars(func):  # `{"mse": loss.item()}`, `err.mean()`: one element per call
            entry["returns_scalars"] = True
        elif device := model.provenance.device_returns(func):  # `return self.head(feats)`: a per-batch device tensor
            entry["returns_device"] = device  # (the whole value, or elements of the tuples it returns)
        run = summaries.model_run(func)
        if run is not None:
            entry["runs"] = [run[1]]
        if model.grad.declared_entry(func) is Grad.OFF:
            entry["grad"] = "off"
        differentiated = model.provenance.differentiated_parameters(func)
        if differentiated:  # `self._backward(loss, opt)`: what the caller hands as `loss` is backwarded
            entry["backwards"] = differentiated
        if model.loops.trains(func):  # a caller's loop around it trains, whatever the loop is named
            entry["trains"] = True
        left = model.grad.leaves(func) if cls is None else None
        if left in (Grad.ON, Grad.OFF):  # `torch.set_grad_enabled(False)` and never back: its callers go on without grad
            entry["leaves_grad"] = left.value
        if cls is None and summaries.returns_evaluated(func):  # `load_reference(path)`: a model in eval mode
            entry["returns_evaluated"] = True
        evaluates = summaries.evaluates(func)
        if evaluates:  # `prepare_deepspeed(model)`: puts the model it is handed in eval mode
            entry["evals"] = evaluates
        loads = checkpoint_load(model, func)
        if loads:
            entry["loads"] = loads
        closures = model.calls.closures.returned.get(id(func), ()) if cls is None else ()
        # (a closure that differentiates what it returns is a training step: its caller keeps no activations)
        evaluates_only = closures and not any(model.loops.has_backward(inner) for inner in closures)
        closure = join([summaries.returns(inner) or Value(history=NO) for inner in closures]) if evaluates_only else None
        if closure is not None and closure.history != NO:  # `score = make_scorer(model)`: what calling `score` returns
            entry["closure_returns"] = closure.to_json()
        if cls is None and model.provenance.returns_made_module(func):  # `build_head(dim)`, `get_module_by_name(model, name)`
            entry["returns_module"] = True
        made = returns_differentiating(model, func) if cls is None else []
        if made:  # `model, checkpoint = make_and_restore_model(...)`: calling `model` takes gradients
            entry["returns_differentiating"] = made
        run = _evaluation_run(model, func) if cls is not None else None
        if run:  # an override its base class's file calls on `self` (`overrides:` questions)
            entry["evaluation_run"] = run
        text = model.provenance.text_parameters(func)
        if text:  # `generation_metric(hyps, refs)` splits the items of `refs` as text: what is handed there is text
            entry["text_items"] = text
        handed = _handed_to_self(model, func, params) if cls is not None else {}
        if handed:  # `self.update(preds, target)` in a base's `forward`: what a subclass's `update` keeps, it keeps
            entry["hands_self"] = handed
        if entry:
            entry["params"] = params
            rest = func.params.star_kwarg
            if type(rest) is cst.Param and rest.name.value in keeps:  # its `**kwargs`: a call's other keywords
                entry["keyword_rest"] = rest.name.value
        if cls is not None and any(dotted(d.decorator) in ("property", "functools.cached_property", "cached_property") for d in func.decorators):
            entry["property"] = True  # `self.pipe.text_encoder(x)` calls what it returns: its facts are not the call's
        name = summaries.name(func)
        if not found.get(name):  # of two definitions in the branches of a block, the one that says something
            found[name] = entry
    for stmt in model.module.body:
        # `COLLECT_STATS = False`: a constant other files may keep on a module (no module itself)
        line = stmt.body[0] if type(stmt) is cst.SimpleStatementLine and len(stmt.body) == 1 else None
        if type(line) is cst.Assign and len(line.targets) == 1 and type(line.targets[0].target) is cst.Name:
            name = line.targets[0].target.value
            bound = model.bindings(model.module, name)  # bound once, or to literals alone, and no `global` rebinds it
            rebound = any(name in (n.name.value for n in g.names) for g in tree.by_type.get(cst.Global, ()))
            if bound and not rebound and all(b.value is not None and is_literal(b.value) for b in bound):
                found.setdefault(name, {"constant": True})
            elif type(line.value) is cst.Attribute and line.value.attr.value == "apply" and type(line.value.value) is cst.Name:
                found.setdefault(name, {"applies": line.value.value.value})  # `lookup = LookupOp.apply`: calls apply the Function
    return found


def _handed_to_self(model: "FileContext", func: cst.FunctionDef, params: list[str]) -> dict[str, dict[str, Any]]:
    """The parameters a method hands, unchanged, to other methods it calls on `self` (a template: a
    base class's `forward` calls `self.update(preds, target)`, which its subclasses define): method ->
    {parameter: the callee's position (int, after `self`) or keyword (str) it arrives at}."""
    found: dict[str, dict[str, Any]] = {}
    for call in model.tree.descendants(func.body, cst.Call):
        callee = call.func
        if not (type(callee) is cst.Attribute and type(callee.value) is cst.Name and callee.value.value == "self"):
            continue
        if callee.attr.value == func.name.value or model.scope_of(call) is not func:
            continue
        positional = [a for a in call.args if a.keyword is None]
        for index, arg in enumerate(call.args):
            if arg.star or type(arg.value) is not cst.Name or arg.value.value not in params:
                continue
            at: Any = arg.keyword.value if arg.keyword is not None else positional.index(arg)
            found.setdefault(callee.attr.value, {}).setdefault(arg.value.value, at)
    return found


def _imported_bases(model: "FileContext", cls: cst.ClassDef) -> list[str]:
    """The bases of `cls`, as written, that it imports (`TorchAgent`, `agents.TorchAgent`): the
    project index finds the class each names, and so the overrides of its methods here."""
    roots = set(model.imports.aliases) | set(model.imports.relative)
    names = (dotted(base.value) for base in cls.bases if base.keyword is None)
    return [name for name in names if name and name.split(".")[0] in roots]


def _evaluation_run(model: "FileContext", func: cst.FunctionDef) -> str | None:
    """Where a method that never differentiates runs a model with grad on (itself, as ML003 counts a
    model run, or through its callees), that run in words; else None. Asked of a method named for
    evaluation (`eval_step`), and of any method of a class, no module, that derives from a class of
    another file (a runner whose base there calls it from its evaluation loop: `self.forward_batch(batch)`;
    a module's methods run inside its forward)."""
    loops = model.loops
    if loops.trains(func) or loops.has_backward(func):
        return None
    if not loops.is_eval_function(func) and (
        model.provenance.class_kind(func) is not None or not _imported_bases(model, model.enclosing_class(func))  # type: ignore[arg-type]
    ):
        return None
    for call in model.tree.descendants(func.body, cst.Call):
        if model.scope_of(call) is func and model.grad_state(call) is Grad.ON and model.model_runs.runs_module(call):
            return model.summaries.describe(call)
    chain = model.model_runs.model_run(func)
    return model.summaries.describe(chain[-1]) if chain else None


_BLOCKS = (cst.IndentedBlock, cst.Try, cst.ExceptHandler, cst.Else, cst.Finally, cst.If)
# (an entry set by key is left out: `self.latest[name] = value` with the same keys every call does not grow)
_GROWING = ("append", "concat")


def _grows_with(model: "FileContext", statement: cst.CSTNode) -> bool:
    """Does the callee's store `statement` add one more of what it keeps on every call (an append, a
    concatenation: not a running sum), without moving it off the device first?"""
    store = model.loops.store_of(statement)
    if store is not None and store.kind == "update" and store.keep is not None:
        store = model.loops.store_of(store.keep)  # kept by a callee of its own
    return store is not None and store.kind in _GROWING and not model.summaries.keeps_on_host(store.statement)


def _module_level(model: "FileContext", func: cst.FunctionDef) -> bool:
    """Is `func` defined at module level, directly or in the blocks of a `try` or `if` there?"""
    parent = model.tree.parent_of(func)
    while type(parent) in _BLOCKS:
        parent = model.tree.parent_of(parent)
    return parent is model.module


_NO_VALUE = (
    cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.ConcatenatedString, cst.FormattedString,
    cst.Comparison, cst.BooleanOperation, cst.Lambda,
)


def _returns_a_value(model: "FileContext", func: cst.FunctionDef) -> bool:
    """Can what `func` returns carry anything (not only nothing, constants, strings, comparisons)?
    Most functions of a project need no look at their returns' flow then."""
    for ret in model.tree.descendants(func.body, cst.Return):
        value = ret.value
        if value is None or type(value) in _NO_VALUE or (type(value) is cst.Name and value.value in ("None", "True", "False")):
            continue
        if model.scope_of(ret) is func:
            return True
    return False


def checkpoint_load(model: "FileContext", func: cst.FunctionDef) -> list[str | int]:
    """[the file, the `map_location`] of a function that hands them to `torch.load` from its callers,
    each a parameter's name, or, where it forwards its `*args, **kwargs` (`def load(*args, **kwargs):
    return torch.load(*args, **kwargs)`), the place among the positional arguments a call passes
    beyond the named parameters (`map_location` also by its keyword, which `**kwargs` forwards). The
    `map_location` parameter defaults to None (`def load_ckpt(path, map_location=None)`), or to what
    `torch.load` defaults it to where forwarded: its callers load to the saved device unless they
    pass one. [] for any other function."""
    if "load" not in func.name.value.lower():
        return []
    defaults = {p.name.value: p.default for p in [*func.params.params, *func.params.kwonly_params]}
    rest = [p.name.value if type(p) is cst.Param else None for p in (func.params.star_arg, func.params.star_kwarg)]
    for call in model.tree.descendants(func.body, cst.Call):
        if (model.imports.resolve(call.func) or "") not in CHECKPOINT_LOADS or not call.args:
            continue
        if _forwards(model, func, call, rest):
            first = call.args[0]
            if len(call.args) == 2:
                return [0, 1]  # `torch.load(*args, **kwargs)`
            named = not first.star and first.keyword is None and type(first.value) is cst.Name
            if len(call.args) == 3 and named and first.value.value in defaults:  # type: ignore[attr-defined]
                return [first.value.value, 0]  # type: ignore[attr-defined]  # `torch.load(path, *args, **kwargs)`
            continue
        where = CHECKPOINT_LOADS[model.imports.resolve(call.func) or ""]
        source = call_arg(call, where[0], "f")
        location = call_arg(call, where[1], "map_location")
        if source is None or location is None or type(source.value) is not cst.Name or type(location.value) is not cst.Name:
            continue
        default = defaults.get(location.value.value, cst.Integer("0"))
        if source.value.value in defaults and type(default) is cst.Name and default.value == "None":
            return [source.value.value, location.value.value]
    return []


def _forwards(model: "FileContext", func: cst.FunctionDef, call: cst.Call, rest: list[str | None]) -> bool:
    """Does `call` end with the function's own `*args, **kwargs` (`rest`), unpacked, and nothing else
    starred, as the callers passed them: read nowhere else in the function (not
    `kwargs.setdefault("map_location", "cpu")`)?"""
    starred = [(a.star, code(a.value)) for a in call.args if a.star]
    if None in rest or starred != [("*", rest[0]), ("**", rest[1])] or call.args[-1].star != "**":
        return False
    reads = [n for n in model.tree.descendants(func.body, cst.Name) if n.value in rest]
    return len(reads) == 2


def _step_methods(model: "FileContext", cls: cst.ClassDef) -> dict[str, list[Any]]:
    """The methods a class's own loops call once per step (`for batch in loader: self.train_step(batch)`),
    each with [whether the loop evaluates, its grad mode], and those its project base classes do:
    a subclass in another file that overrides one runs once per step (a template method)."""
    steps: dict[str, list[Any]] = {}
    for base in cls.bases:
        inherited = model.project.klass(base.value) if base.keyword is None else None
        steps.update((inherited or {}).get("steps", {}))
    for call in model.tree.descendants(cls, cst.Call):
        func = call.func
        if not (type(func) is cst.Attribute and type(func.value) is cst.Name and func.value.value == "self"):
            continue
        loop = next((loop for loop in model.enclosing_loops(call) if model.loops.is_step_loop(loop)), None)
        scope = model.scope_of(call)
        if loop is None or not isinstance(scope, cst.FunctionDef) or model.enclosing_class(scope) is not cls:
            continue
        off = model.grad_state(call) is Grad.OFF
        steps.setdefault(func.attr.value, [off or model.loops.is_eval_loop(loop), "off" if off else "on"])
    # and those a per-step framework hook of the class calls on `self` (ignite's `Metric.update` calling
    # `self._update(output)`), with where the hook's values with history go
    for name, (hook, positions, element) in model.frameworks.delegated(cls).items():
        steps.setdefault(
            name, [hook.evaluation, hook.grad.value, list(positions), element, hook.accumulates, hook.framework]
        )
    return steps


def kept_argument_calls(model: "FileContext", imported_roots: set[str]) -> list[list[Any]]:
    """Calls of imported functions, once per step with grad on, that pass a value with autograd
    history (`record(loss)` in a training loop): whether the callee keeps it is the other file's
    to say. Each: [callee as written, argument index, row, column, end row, end column,
    argument as written, suppressed, indices of the arguments that are containers outliving
    the step (`record(history, loss)` with `history` made before the loop)]."""
    from memlint.analysis.regions.loops import Store
    from memlint.suppression import is_suppressed

    found: list[list[Any]] = []
    for statement, call, name in model.calls.imported_statement_calls(imported_roots):
        region = model.loops.step_region(statement) if model.grad_state(call) is not Grad.OFF else None
        if region is None:
            continue
        positional = [a for a in call.args if a.keyword is None and not a.star]
        outliving = [
            i
            for i, a in enumerate(positional)
            if root_name(a.value) and model.loops.outlives(Store(statement, a.value, a.value, "append"), region)
        ]
        for index, arg in enumerate(positional):
            if model.provenance.carries_history(arg.value, statement):
                where = model.range_of(statement)
                suppressed = is_suppressed([model.line_text(statement)], 1, 1, "ML001", "retained-graph")
                found.append([
                    name, index, where.start.line, where.start.column + 1, where.end.line, where.end.column + 1,
                    code(arg.value), suppressed, outliving,
                ])
                break
    return found


def _unpacked_arity(model: "FileContext", call: cst.Call) -> int | None:
    """n where `call` is the value of an assignment that unpacks it into n targets, none starred
    (`loss, metrics = step(batch)`); None otherwise."""
    statement = model.tree.parent_of(call)
    if type(statement) is not cst.Assign or statement.value is not call or len(statement.targets) != 1:
        return None
    target = statement.targets[0].target
    if type(target) not in (cst.Tuple, cst.List) or any(type(e) is cst.StarredElement for e in target.elements):
        return None
    return len(target.elements)
