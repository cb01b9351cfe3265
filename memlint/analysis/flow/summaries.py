"""Function summaries: what a function of this file returns and does with its parameters.

A caller asks the summary instead of reading the callee's body: does
`forward_step(model, batch)` return a value with autograd history, and which
element of the tuple it returns has it; does `meter.update(loss)` keep its
argument (appends it to a list on `self`) or make it harmless (`.item()`);
does `add_to_total(total, loss)` pass `total` through and detach `loss`.

Summaries are computed on demand, bottom-up through the calls they meet
(each function once, memoized); a call back into a function whose summary
is being computed (recursion) reads it as returning nothing with history,
which is the analysis' conservative side ("no finding").
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

import libcst as cst

from memlint.analysis.expressions import code, names_in, root_name, target_names
from memlint.analysis.flow.values import NO, YES, Value, join
from memlint.analysis.grad_mode import Grad

if TYPE_CHECKING:
    from memlint.analysis.model import SemanticModel


@dataclass(frozen=True)
class FunctionSummary:
    name: str  # `forward_step`, `Meter.update`
    line: int
    returns: Value
    params: tuple[str, ...]  # in call order, `self` included for methods
    keeps: dict[str, str]  # parameter -> where the function keeps it (`self.values`)
    keep_lines: dict[str, int]  # parameter -> the line of that store
    backwards: tuple[str, ...]  # parameters it differentiates
    runs_model: str  # where it calls a module with grad on (itself or through a callee), "" if nowhere
    grad: str  # the grad mode its body starts in: "on", "off", "maybe"

    def to_json(self) -> dict[str, Any]:
        return {
            "line": self.line,
            "returns": self.returns.to_json(),
            "params": list(self.params),
            "keeps": self.keeps,
            "backwards": list(self.backwards),
            "runs_model": self.runs_model,
            "grad": self.grad,
        }


class Summaries:
    def __init__(self, model: "SemanticModel") -> None:
        self.model = model
        self._done: dict[int, FunctionSummary] = {}
        self._computing: set[int] = set()
        self._derived: dict[int, dict[str, set[str]]] = {}

    def of(self, func: cst.FunctionDef) -> FunctionSummary | None:
        """The summary of `func`; None while it is being computed (a recursive call)."""
        key = id(func)
        if key in self._done:
            return self._done[key]
        if key in self._computing:
            return None
        self._computing.add(key)
        try:
            summary = self._summarize(func)
        finally:
            self._computing.discard(key)
        self._done[key] = summary
        return summary

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
        summary = self.of(func)
        if summary is None:
            return None
        value = summary.returns if element is None else summary.returns.element(element)
        if value.history != NO or not value.passes:
            return value
        for param in value.passes:
            arg = self.argument_for(call, func, param)
            if arg is not None and arg_history(arg):
                return Value(
                    history=YES,
                    reason=f"`{code(arg)}` passed through `{summary.name}`",
                    kind=value.kind,
                    where=value.where,
                )
        return value

    def argument_for(self, call: cst.Call, func: cst.FunctionDef, param: str) -> cst.BaseExpression | None:
        """The argument of `call` that `func` receives as `param`."""
        params = _positional(func)
        if params and params[0] in ("self", "cls") and isinstance(call.func, cst.Attribute):
            params = params[1:]  # bound method: the receiver is `self`
        for arg in call.args:
            if arg.keyword is not None and arg.keyword.value == param:
                return arg.value
        positional = [a for a in call.args if a.keyword is None and not a.star]
        if param in params and params.index(param) < len(positional):
            return positional[params.index(param)].value
        return None

    def kept_arguments(self, call: cst.Call, func: cst.FunctionDef) -> list[tuple[cst.BaseExpression, str, int]]:
        """The arguments of `call` that `func` keeps beyond the call, in parameter order:
        (argument, where it keeps it, the line of that store)."""
        summary = self.of(func)
        if summary is None:
            return []
        found = []
        for param in summary.params:
            arg = self.argument_for(call, func, param) if param in summary.keeps else None
            if arg is not None:
                found.append((arg, summary.keeps[param], summary.keep_lines[param]))
        return found

    def origin(self, expr: cst.BaseExpression, at: cst.CSTNode) -> str | None:
        """Where `expr`'s value crossed a function, for a message: "`loss` <- `step()` returns
        `metrics["loss"]` (train.py:88)"; None when it was computed here."""
        model = self.model
        base = expr
        while isinstance(base, (cst.Attribute, cst.Subscript)):
            base = base.value
        if isinstance(base, cst.Call):
            call, element = base, None
        elif isinstance(base, cst.Name):
            from memlint.analysis.provenance import unpacked

            found = None
            for binding in model.provenance.reaching_bindings(model.scope_of(at), base.value, at):
                value, element = unpacked(binding)
                if isinstance(value, cst.Call) and model.local_callees(value):
                    found = (value, element)
                    break
            if found is None:
                return None
            call, element = found
        else:
            return None
        for func in model.local_callees(call):
            summary = self.of(func)
            if summary is None:
                continue
            value = summary.returns if element is None else summary.returns.element(element)
            if value.history != NO and value.where:
                return f"`{code(expr)}` <- `{code(call.func)}()` returns {value.where}"
        return None

    # -- computing one summary ---------------------------------------------------
    def _summarize(self, func: cst.FunctionDef) -> FunctionSummary:
        model = self.model
        cls = model.enclosing_class(func)
        name = f"{cls.name.value}.{func.name.value}" if cls is not None else func.name.value
        grad = model.grad.entry_state(func)
        derived = self.derived(func)
        returns = []
        for ret in model.tree.descendants(func.body, cst.Return):
            if ret.value is not None and model.scope_of(ret) is func:
                returns.append(self._value_of(ret.value, ret, func, grad, derived))
        provenance = model.provenance
        keeps: dict[str, str] = {}
        keep_lines: dict[str, int] = {}
        for kind in (cst.Expr, cst.Assign, cst.AugAssign):
            for statement in model.tree.descendants(func.body, kind):
                if model.scope_of(statement) is not func or model.grad_state(statement) is Grad.OFF:
                    continue
                store = model.loops.store_of(statement)
                if store is None or not self._outlives_call(store.container, func):
                    continue
                for param in self._params_read(store.value, derived):
                    keeps.setdefault(param, code(store.container))
                    keep_lines.setdefault(param, model.range_of(statement).start.line)
        backwarded = provenance.backwarded_names(func)
        return FunctionSummary(
            name=name,
            line=model.range_of(func.name).start.line,
            returns=join(returns),
            params=tuple(_positional(func)),
            keeps=keeps,
            keep_lines=keep_lines,
            backwards=tuple(sorted({p for n in backwarded for p in derived.get(n, ())})),
            runs_model=self._runs_model(func) if grad is not Grad.OFF else "",
            grad=grad.value,
        )

    def _runs_model(self, func: cst.FunctionDef) -> str:
        """Where `func` runs a module with grad on: `model(...)` (f.py:12), directly or in a callee."""
        model = self.model
        for call in model.tree.descendants(func.body, cst.Call):
            if model.scope_of(call) is not func or model.grad_state(call) is Grad.OFF:
                continue  # a nested function runs when it is called, not when `func` is
            if model.provenance.is_module_call(call) and not model.provenance.is_loss_call(call):
                return f"`{code(call.func)}(...)` ({os.path.basename(model.path)}:{model.range_of(call).start.line})"
            for callee in model.local_callees(call):
                summary = self.of(callee)
                if summary is not None and summary.runs_model:
                    return summary.runs_model
        return ""

    def _value_of(
        self, expr: cst.BaseExpression, at: cst.CSTNode, func: cst.FunctionDef, grad: Grad, derived: dict[str, set[str]]
    ) -> Value:
        if isinstance(expr, cst.Tuple) and not any(isinstance(e, cst.StarredElement) for e in expr.elements):
            parts = [self._value_of(e.value, at, func, grad, derived) for e in expr.elements]
            whole = join(parts)
            return Value(
                history=whole.history,
                reason=whole.reason,
                kind="sequence",
                elements=tuple(parts),
                passes=whole.passes,
                where=whole.where,
            )
        model = self.model
        provenance = model.provenance
        where = f"`{code(expr)}` ({os.path.basename(model.path)}:{model.range_of(at).start.line})"
        history = NO if grad is Grad.OFF or not provenance.carries_history(expr, at) else YES
        kind = provenance.value_kind(expr, at)
        location = "device" if history == YES and provenance.device_output(expr, at) else "unknown"
        return Value(
            history=history,
            reason=f"returns {where}" if history == YES else "",
            kind={"container": "sequence", "maybe": "unknown"}.get(kind, kind),
            location=location,
            passes=tuple(sorted(self._params_read(expr, derived))),
            where=where,
        )

    def derived(self, func: cst.FunctionDef) -> dict[str, set[str]]:
        """Name in `func` -> the parameters whose values it may hold with their history
        (`x = param * 2` derives from `param`; `x = param.detach()` does not)."""
        key = id(func)
        if key in self._derived:
            return self._derived[key]
        model = self.model
        table: dict[str, set[str]] = {p: {p} for p in model.params(func) if p not in ("self", "cls")}
        self._derived[key] = table
        assigns = [
            node
            for kind in (cst.Assign, cst.AugAssign, cst.AnnAssign)
            for node in model.tree.descendants(func.body, kind)
            if model.scope_of(node) is func and node.value is not None
        ]
        changed = True
        while changed:
            changed = False
            for node in assigns:
                sources = self._params_read(node.value, table)
                if not sources:
                    continue
                targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
                for target in targets:
                    for name in target_names(target):
                        if not sources <= table.setdefault(name, set()):
                            table[name] |= sources
                            changed = True
        return table

    def _params_read(self, expr: cst.BaseExpression, derived: dict[str, set[str]]) -> set[str]:
        """Parameters whose history `expr` may carry (read other than through `.detach()`, `.item()`, ...)."""
        names = {n for n in names_in(expr) if derived.get(n)}
        if not names or not self.model.provenance.reads_with_history(expr, names):
            return set()
        found: set[str] = set()
        for name in names:
            if self.model.provenance.reads_with_history(expr, {name}):
                found |= derived[name]
        return found

    def _outlives_call(self, container: cst.BaseExpression, func: cst.FunctionDef) -> bool:
        """A container that lives longer than one call of `func`: on `self`, or a module global."""
        root = root_name(container)
        if root in ("self", "cls"):
            return True
        model = self.model
        return bool(root) and not model.bindings(func, root) and root not in model.params(func) and bool(
            model.bindings(model.module, root)
        )


def _positional(func: cst.FunctionDef) -> list[str]:
    params = func.params
    return [p.name.value for p in [*params.posonly_params, *params.params, *params.kwonly_params]]
