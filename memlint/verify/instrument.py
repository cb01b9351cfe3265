"""Insert memory probes into loops, keeping every line where it was.

A probe must run once per iteration, including iterations that end in
`continue`. Rather than a statement at the end of the body (which `continue`
skips) or a `try/finally` around it (which adds lines), the probe sits in
the loop header, on the same line, as an expression:

    for x in loader:        ->  for x in __memlint_loop__(3, loader):
    while step < n:         ->  while __memlint_while__(3, (step < n)):

`__memlint_loop__` wraps the iterable: the interpreter asks it for the next
item when an iteration ends, however it ends (end of body or `continue`), so
the probe records memory exactly there; the first request marks the entry
into the loop (the baseline). `__memlint_while__` receives the condition's
value, records, and returns its truth. Either can end the loop early by
answering "no more items" (once that loop has run its iterations) or stop
the whole run. No line is added or removed, so tracebacks point at the lines
of the file on disk.

A function that a framework calls once per step (a Lightning
`training_step`, a callback) has no loop of its own to probe: each call is
an iteration. The probe goes on the line of the function's first statement,
so that it runs before anything else the call does, at call entry:

    "doc"; x = f()     ->  "doc"; __memlint_call__(7); x = f()   (after a docstring)
    x = f()            ->  __memlint_call__(7); x = f()
    if c:              ->  if __memlint_call__(7, (c)):           (the value passes through)
    for x in it:       ->  for x in __memlint_call__(7, (it)):
    with a as b:       ->  with __memlint_call__(7, (a)) as b:
    try:               ->  the first statement of the `try` body, the same way

A first statement that is a `while` (its test runs per iteration), a nested
`def` or `class` without decorators, or a `match` leaves the function
unprobed (`instrument` reports which).

Explicit moves to the host (`x.cpu()`, `x.to("cpu")`, `x.to(device="cpu")`,
`x.to(torch.device("cpu"))`) are wrapped too, `__memlint_host__(x.cpu())`:
on a CPU-only run they return the very same storage, and the live-storage
tracker would go on counting it as device memory; the hook tells it that on
a GPU this would be host memory (a no-op with the CUDA tracker).
"""

from __future__ import annotations

import libcst as cst

LOOP_HOOK = "__memlint_loop__"
WHILE_HOOK = "__memlint_while__"
HOST_HOOK = "__memlint_host__"
CALL_HOOK = "__memlint_call__"
STORE_HOOK = "__memlint_store__"


def _is_cpu(expr: cst.BaseExpression) -> bool:
    if isinstance(expr, cst.SimpleString):
        return expr.evaluated_value == "cpu"
    if isinstance(expr, cst.Call) and isinstance(expr.func, (cst.Name, cst.Attribute)):
        name = expr.func.value if isinstance(expr.func, cst.Name) else expr.func.attr.value
        return name == "device" and len(expr.args) == 1 and _is_cpu(expr.args[0].value)
    return False


def is_host_move(call: cst.Call) -> bool:
    if not isinstance(call.func, cst.Attribute):
        return False
    method = call.func.attr.value
    if method == "cpu":
        return not call.args
    if method == "to" and call.args:
        first = call.args[0]
        if first.keyword is None and not first.star:
            return _is_cpu(first.value)
        return any(a.keyword is not None and a.keyword.value == "device" and _is_cpu(a.value) for a in call.args)
    return False


def _parenthesized(expr: cst.BaseExpression) -> cst.BaseExpression:
    return expr.with_changes(lpar=[cst.LeftParen(), *expr.lpar], rpar=[*expr.rpar, cst.RightParen()])


def _hook_call(name: str, probe: int, expr: cst.BaseExpression | None = None) -> cst.Call:
    if expr is None:
        return cst.Call(func=cst.Name(name), args=[cst.Arg(cst.Integer(str(probe)))])
    return cst.Call(
        func=cst.Name(name),
        args=[
            cst.Arg(cst.Integer(str(probe)), comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))),
            cst.Arg(_parenthesized(expr)),
        ],
    )


def _is_docstring(stmt: cst.BaseSmallStatement) -> bool:
    return isinstance(stmt, cst.Expr) and isinstance(stmt.value, (cst.SimpleString, cst.ConcatenatedString))


def _with_entry_probe(statement: cst.CSTNode, probe: int) -> cst.CSTNode | None:
    """`statement` (a function's first) with a call-entry probe on its own line; None where none fits."""
    hook = cst.Expr(_hook_call(CALL_HOOK, probe))
    if isinstance(statement, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
        body = list(statement.body)
        at = 1 if body and _is_docstring(body[0]) else 0
        if at:  # the docstring stays first: `"doc"; probe`
            body[0] = body[0].with_changes(semicolon=cst.Semicolon(whitespace_after=cst.SimpleWhitespace(" ")))
            body.insert(1, hook)
            if len(body) > 2:
                body[1] = hook.with_changes(semicolon=cst.Semicolon(whitespace_after=cst.SimpleWhitespace(" ")))
        else:
            body.insert(0, hook.with_changes(semicolon=cst.Semicolon(whitespace_after=cst.SimpleWhitespace(" "))))
        return statement.with_changes(body=body)
    if isinstance(statement, cst.If):
        return statement.with_changes(test=_hook_call(CALL_HOOK, probe, statement.test))
    if isinstance(statement, cst.For):
        return statement.with_changes(iter=_hook_call(CALL_HOOK, probe, statement.iter))
    if isinstance(statement, cst.With):
        first = statement.items[0]
        items = [first.with_changes(item=_hook_call(CALL_HOOK, probe, first.item)), *statement.items[1:]]
        return statement.with_changes(items=items)
    if isinstance(statement, cst.Try):
        inner = _with_entry_probe(statement.body.body[0], probe)
        if inner is None:
            return None
        return statement.with_changes(body=statement.body.with_changes(body=[inner, *statement.body.body[1:]]))
    if isinstance(statement, (cst.FunctionDef, cst.ClassDef)) and statement.decorators:
        first = statement.decorators[0]
        decorators = [first.with_changes(decorator=_hook_call(CALL_HOOK, probe, first.decorator)), *statement.decorators[1:]]
        return statement.with_changes(decorators=decorators)
    return None


class _Instrumenter(cst.CSTTransformer):
    def __init__(self, probes: dict[int, int], stores: dict[int, tuple[int, int]] | None = None) -> None:
        super().__init__()
        self.probes = probes  # id(original loop or function node) -> probe id
        self.stores = stores or {}  # id(a finding's container expression) -> (probe, store id)
        self.done: set[int] = set()

    def on_leave(self, original: cst.CSTNode, updated: cst.CSTNode):
        """A finding's container, `losses` in `losses.append(x)`, becomes
        `__memlint_store__(probe, store, losses)`: the hook returns it unchanged and keeps
        it, so the probe can measure what this store keeps alive."""
        updated = super().on_leave(original, updated)
        where = self.stores.get(id(original))
        if where is None or not isinstance(updated, cst.BaseExpression):
            return updated
        probe, store = where
        comma = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
        return cst.Call(
            func=cst.Name(STORE_HOOK),
            args=[cst.Arg(cst.Integer(str(probe)), comma=comma), cst.Arg(cst.Integer(str(store)), comma=comma),
                  cst.Arg(_parenthesized(updated))],
        )

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        probe = self.probes.get(id(original))
        if probe is None:
            return updated
        body = updated.body
        if isinstance(body, cst.SimpleStatementSuite):  # `def f(x): return x`
            new = _with_entry_probe(body, probe)
            self.done.add(probe)
            return updated.with_changes(body=new)
        first = _with_entry_probe(body.body[0], probe)
        if first is None:
            return updated
        self.done.add(probe)
        return updated.with_changes(body=body.with_changes(body=[first, *body.body[1:]]))

    def leave_For(self, original: cst.For, updated: cst.For) -> cst.For:
        probe = self.probes.get(id(original))
        if probe is None or original.asynchronous is not None:
            return updated
        self.done.add(probe)
        return updated.with_changes(iter=_hook_call(LOOP_HOOK, probe, updated.iter))

    def leave_While(self, original: cst.While, updated: cst.While) -> cst.While:
        probe = self.probes.get(id(original))
        if probe is None:
            return updated
        self.done.add(probe)
        return updated.with_changes(test=_hook_call(WHILE_HOOK, probe, updated.test))

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if not is_host_move(original):
            return updated
        return cst.Call(func=cst.Name(HOST_HOOK), args=[cst.Arg(updated)])


def instrument(module: cst.Module, probes: dict[int, int], stores: dict[int, tuple[int, int]] | None = None) -> str:
    """The source of `module` with each loop or function in `probes` (id(node) -> probe id)
    instrumented, and each container in `stores` (id(node) -> (probe, store id)) measured."""
    return instrument_all(module, probes, stores)[0]


def instrument_all(module: cst.Module, probes: dict[int, int],
                   stores: dict[int, tuple[int, int]] | None = None) -> tuple[str, set[int]]:
    """The instrumented source, and the probes that found a place (a function whose first
    statement takes no probe is left out)."""
    transformer = _Instrumenter(probes, stores)
    new = module.visit(transformer)
    code = new.code
    if stores:
        try:
            compile(code, "<instrumented>", "exec", dont_inherit=True)
        except SyntaxError:  # a store hook where Python takes no call: measure the loops only
            return instrument_all(module, probes)
    if code.count("\n") != module.code.count("\n"):  # pragma: no cover - a bug, never the user's fault
        raise AssertionError("instrumentation changed the line count")
    return code, transformer.done
