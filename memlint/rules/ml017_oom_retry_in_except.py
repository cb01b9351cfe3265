from __future__ import annotations

import libcst as cst

from memlint.analysis.syntax.expressions import code, method_name, names_in
from memlint.models import Applicability, Severity
from memlint.rules.base import FixSpec, Rule

OUT_OF_MEMORY = {"torch.cuda.OutOfMemoryError", "torch.OutOfMemoryError", "torch.cuda.memory.OutOfMemoryError"}
# Exceptions an out-of-memory error is also caught as, when the handler checks the message.
BROAD = {"RuntimeError", "Exception", "BaseException"}
FLAG = "out_of_memory"
# Callees that report or clean up rather than run the step again.
_NOT_A_STEP_ROOTS = ("torch.", "gc.", "logging.", "warnings.", "time.", "sys.", "os.")
_NOT_A_STEP = {"print", "len", "str", "repr", "int", "float", "isinstance", "range", "sleep", "format"}
_LOG_VERBS = {"info", "warning", "warn", "error", "debug", "exception", "log", "critical", "write", "print"}


class OomRetryInExcept(Rule):
    code = "ML017"
    name = "oom-retry-in-except"
    severity = Severity.WARNING
    summary = "An out-of-memory handler retries the step inside the `except` block"
    fix_applicability = Applicability.UNSAFE
    needles = (("OutOfMemoryError", "out of memory"),)
    what = """
Checks for an `except torch.cuda.OutOfMemoryError:` block (or an
`except RuntimeError as e:` block whose `if "out of memory" in str(e):`
branch handles the out-of-memory case) that runs the step again inside the
block: a model call, a `backward()`, a call the `try` body also makes, or a
call of the enclosing function itself. A handler that only logs, frees
memory, re-raises, or leaves the retry to the next iteration of a loop
(`continue`, or a `while` loop around the `try`) is fine, and so is a retry
on the CPU (its inputs moved with `.cpu()` or `.to("cpu")` in the handler).
"""
    why = """
While an `except` block runs, the exception is alive, and its traceback holds
every frame between the `try` and the failed allocation, with all their
locals: the batch, the activations of the forward that failed, the
partial graph. A retry inside the block runs with all of that still
allocated, so it fails again where it would have fit, or keeps the batch size
needlessly low. PyTorch's FAQ ("My out of memory exception handler can't
allocate memory") says to move the recovery code outside the `except`
clause.

The fix sets a flag in the `except` block and retries after the `try`
statement (`if out_of_memory: ...`). It is unsafe: an exception raised by
the retry is no longer chained to the out-of-memory error, and the flag is a
new name in the function.
"""
    example = """
try:
    loss = train_step(model, batch)
except torch.cuda.OutOfMemoryError:
    torch.cuda.empty_cache()
    loss = train_step(model, halve(batch))
"""
    use_instead = """
out_of_memory = False
try:
    loss = train_step(model, batch)
except torch.cuda.OutOfMemoryError:
    out_of_memory = True
if out_of_memory:
    torch.cuda.empty_cache()
    loss = train_step(model, halve(batch))
"""

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        region = self._out_of_memory_branch(node)
        if region is None:
            return
        attempt = self.model.tree.parent_of(node)
        if not isinstance(attempt, cst.Try):
            return
        retry = self._retry(region, attempt)
        if retry is None or self._falls_back_to_cpu(region, retry):
            return
        caught = code(node.type) if node.type is not None else "an out-of-memory error"
        message = (
            f"`{code(retry.func)}(...)` runs the step again inside `except {caught}`, while the traceback still "
            "holds the failed attempt's memory"
        )
        hint = (
            "set a flag in the `except` block and retry after the `try` statement, once the exception is gone "
            "(PyTorch FAQ: until the block ends, the traceback keeps the failed frames, batch and activations alive)"
        )
        fix = self._fix(attempt, node) if region is node.body else None
        self.report(retry, message, hint, fix=fix)

    def _out_of_memory_branch(self, handler: cst.ExceptHandler) -> cst.CSTNode | None:
        """The code that handles an out-of-memory error: the handler's body, or the branch of a broad
        handler that tests the message for "out of memory"."""
        caught = self._caught(handler.type) if handler.type is not None else set()
        if caught & OUT_OF_MEMORY:
            return handler.body
        if not caught & BROAD or handler.name is None or not isinstance(handler.name.name, cst.Name):
            return None
        error = handler.name.name.value
        for test in self.model.tree.descendants(handler.body, cst.If):
            strings = [s for s in self.model.tree.descendants(test.test, cst.SimpleString)]
            if error in set(names_in(test.test)) and any("out of memory" in s.value.lower() for s in strings):
                return test.body
        return None

    def _caught(self, expr: cst.BaseExpression) -> set[str]:
        parts = [e.value for e in expr.elements] if isinstance(expr, cst.Tuple) else [expr]
        return {self.model.imports.resolve(p) or "" for p in parts}

    def _retry(self, region: cst.CSTNode, attempt: cst.Try) -> cst.Call | None:
        model = self.model
        scope = model.scope_of(attempt)
        tried = {code(c.func) for c in model.tree.descendants(attempt.body, cst.Call) if self._may_be_step(c)}
        for call in model.tree.descendants(region, cst.Call):
            if model.scope_of(call) is not scope:
                continue  # a function defined in the handler runs later, if at all
            if model.provenance.is_module_call(call) or method_name(call) == "backward":
                return call
            if not _takes_data(call):
                continue  # `optimizer.zero_grad(set_to_none=True)`: cleanup, not a step on a batch
            if isinstance(scope, cst.FunctionDef) and scope in model.named_callees(call):
                return call  # the function calls itself again
            if self._may_be_step(call) and code(call.func) in tried:
                return call
        return None

    def _falls_back_to_cpu(self, region: cst.CSTNode, retry: cst.Call) -> bool:
        """`blocks = blocks.to("cpu")` before the retry: it runs on the CPU, and the device memory the
        traceback holds is not what it needs (transformers' mxfp4 dequantisation falls back this way)."""
        moved = set()
        for assign in self.model.tree.descendants(region, cst.Assign):
            if isinstance(assign.value, cst.Call) and _to_cpu(assign.value):
                for target in assign.targets:
                    moved.update(names_in(target.target))
        return bool(moved) and bool(moved & {n for a in retry.args for n in names_in(a.value)})

    def _may_be_step(self, call: cst.Call) -> bool:
        """Could this call run (part of) a training step? Not a log line, a torch utility or a builtin."""
        name = self.model.imports.resolve(call.func) or ""
        last = name.rsplit(".", 1)[-1]
        return bool(name) and not name.startswith(_NOT_A_STEP_ROOTS) and name not in _NOT_A_STEP and last not in _LOG_VERBS

    # -- the fix: a flag in the handler, the recovery after the `try` -----------------------
    def _fix(self, attempt: cst.Try, handler: cst.ExceptHandler) -> FixSpec | None:
        model = self.model
        block = model.tree.parent_of(attempt)
        body = handler.body
        if (
            attempt.finalbody is not None
            or not isinstance(block, (cst.IndentedBlock, cst.Module))
            or not isinstance(body, cst.IndentedBlock)
            or model.bindings(model.scope_of(attempt), FLAG)
            or (handler.name is not None and self._uses_name(body, handler.name.name))
            or any(r.exc is None for r in model.tree.descendants(body, cst.Raise))
        ):
            return None  # `finally` would run before the moved recovery; a bare `raise` needs the exception
        flagged = attempt.with_changes(
            handlers=[
                h.with_changes(body=cst.IndentedBlock([cst.parse_statement(f"{FLAG} = True")]), name=None)
                if h is handler
                else h
                for h in attempt.handlers
            ]
        )
        statements = []
        for statement in block.body:
            if statement is attempt:
                statements += [
                    cst.parse_statement(f"{FLAG} = False").with_changes(leading_lines=attempt.leading_lines),
                    flagged.with_changes(leading_lines=[]),
                    cst.If(test=cst.Name(FLAG), body=body),
                ]
            else:
                statements.append(statement)
        return FixSpec(
            Applicability.UNSAFE,
            "Retry after the `try` statement, once the out-of-memory exception is gone",
            ((block, block.with_changes(body=statements)),),
        )

    def _uses_name(self, body: cst.CSTNode, name: cst.BaseExpression) -> bool:
        return isinstance(name, cst.Name) and name.value in set(names_in(body))


def _to_cpu(call: cst.Call) -> bool:
    """`x.cpu()`, `x.to("cpu")`, `x.to(torch.device("cpu"))`."""
    if method_name(call) == "cpu":
        return True
    return method_name(call) == "to" and bool(call.args) and "cpu" in code(call.args[0].value)


def _takes_data(call: cst.Call) -> bool:
    """Is any argument something other than a literal (a batch, a model, `**inputs`)?"""
    literals = (cst.Integer, cst.Float, cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)
    return any(
        not isinstance(a.value, literals) and not (isinstance(a.value, cst.Name) and a.value.value in ("True", "False", "None"))
        for a in call.args
    )
