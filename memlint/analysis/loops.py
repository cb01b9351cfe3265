"""Loops: which train, which evaluate, and what outlives one iteration."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

import libcst as cst

from memlint.analysis.expressions import (
    call_arg,
    code,
    method_name,
    names_in,
    reads_as_name,
    root_name,
    same_code,
    target_names,
)
from memlint.analysis.frameworks import PER_STEP_NAMES, TRAIN_STEP_NAMES
from memlint.analysis.grad_mode import Grad
from memlint.analysis.scopes import Loop, Scope

if TYPE_CHECKING:
    from memlint.analysis.context import FileContext
    from memlint.analysis.provenance import Provenance

_EVAL_FUNCTION = re.compile(
    r"^_*(validate|validation|valid|evaluate|evaluation|eval|test|testing|predict|prediction|"
    r"inference|infer|run_eval|run_validation|run_test)(_|$)"
    r"|_(validate|validation|evaluate|evaluation|eval|predict|prediction|inference)$",
    re.IGNORECASE,
)
_EVAL_LOADER = re.compile(
    r"(^|[^a-z])(val|valid|validation|test|testing|eval|evaluation|dev|holdout)([^a-z]|$|loader|dataloader|set|data|iter)",
    re.IGNORECASE,
)
# Iterables of batches: a loop over one of these runs once per step.
_BATCHES = re.compile(
    r"loader|dataset|batches|data_iter|dataiter|epoch_iterator|train_iter|(^|[^a-z])(data|ds|dl|batch_iter)([^a-z]|$)",
    re.IGNORECASE,
)
OPTIMIZER = re.compile(r"optim|opt$|^opt|solver", re.IGNORECASE)
_SCALER = re.compile(r"scaler", re.IGNORECASE)
_METER = re.compile(r"meter|avg|average|tracker|stats|history|record", re.IGNORECASE)
_INVARIANT_CALLS = {"is_available", "device_count", "is_initialized", "get_world_size", "get_rank"}
_STORE_METHODS = {"append": 0, "appendleft": 0, "extend": 0, "add": 0, "put": 0, "insert": 1}
_IN_PLACE = {"add_", "sub_", "mul_", "div_", "lerp_", "addcmul_", "addcdiv_", "copy_"}
_ACCUMULATING_OPS = (cst.AddAssign, cst.SubtractAssign, cst.MultiplyAssign, cst.DivideAssign)


@dataclass(frozen=True)
class Store:
    """A statement that keeps `value` in `container` (`losses.append(loss)`, `total += loss`)."""

    statement: cst.CSTNode
    container: cst.BaseExpression
    value: cst.BaseExpression
    # "append", "subscript", "accumulate" (`+=`, `t = t + v`), "concat" (`t = torch.cat([t, v])`),
    # "update" (a meter), "in-place" (`self.buf.mul_(m).add_(v)`)
    kind: str


class Loops:
    def __init__(self, model: "FileContext", provenance: "Provenance") -> None:
        self.model = model
        self.provenance = provenance
        self._step_loop: dict[int, bool] = {}
        self._stores: dict[int, Store | None] = {}  # id(statement) -> store_of(statement): rules ask again and again

    # -- where a node sits -------------------------------------------------------
    # -- training ---------------------------------------------------------------
    def is_step_call(self, call: cst.Call) -> bool:
        """`loss.backward()`, `accelerator.backward(loss)`, `optimizer.step()`."""
        return self.provenance.backwarded_expressions(call) is not None or self.is_optimizer_step(call)

    def is_optimizer_step(self, call: cst.Call) -> bool:
        """`optimizer.step()`, `self.opt.step()`, `scaler.step(optimizer)`."""
        if method_name(call) != "step" or not isinstance(call.func, cst.Attribute):
            return False
        last = receiver_name(call.func.value)
        return bool(OPTIMIZER.search(last)) or (bool(_SCALER.search(last)) and bool(call.args))

    def is_training_loop(self, loop: cst.CSTNode) -> bool:
        """Does each iteration of `loop` take an optimisation step (directly, or
        through a function of this file that steps without looping itself)?"""
        key = id(loop)
        if key in self._step_loop:
            return self._step_loop[key]
        self._step_loop[key] = False  # recursion guard
        result = False
        for call in self.model.tree.descendants(loop, cst.Call):
            if self._innermost_region(call) is not loop:
                continue
            if self.is_step_call(call) or any(
                self.steps_once(f) for f in self.model.local_callees(call) if f is not loop
            ):
                result = True
                break
        self._step_loop[key] = result
        return result

    def steps_once(self, func: cst.FunctionDef) -> bool:
        """A per-step function: it steps, but not inside a loop of its own."""
        return self.is_training_loop(func)

    def _innermost_region(self, node: cst.CSTNode) -> cst.CSTNode | None:
        for anc in self.model.tree.ancestors(node):
            kind = type(anc)  # exact types: LibCST's node classes have no subclasses
            if kind is cst.For or kind is cst.While or kind is cst.FunctionDef or kind is cst.Lambda:
                return anc
        return None

    def has_backward(self, region: cst.CSTNode) -> bool:
        """Does `region` differentiate anything (`backward`, `autograd.grad`)?"""
        return bool(self.provenance.backward_calls(region))

    # -- evaluation --------------------------------------------------------------
    def is_eval_function(self, func: cst.CSTNode) -> bool:
        if not isinstance(func, cst.FunctionDef):
            return False
        name = func.name.value
        if name.startswith("test") and self._is_test_file():
            return False  # pytest functions, not evaluation loops
        return bool(_EVAL_FUNCTION.search(name))

    def _is_test_file(self) -> bool:
        path = self.model.path.replace("\\", "/")
        base = path.rsplit("/", 1)[-1]
        return base.startswith("test_") or base.endswith("_test.py") or base == "conftest.py" or "/tests/" in f"/{path}"

    def iterates_batches(self, loop: cst.CSTNode) -> bool:
        if not isinstance(loop, cst.For):
            return False
        text = code(loop.iter)
        return bool(_BATCHES.search(text) or _EVAL_LOADER.search(text))

    def is_step_loop(self, loop: cst.CSTNode) -> bool:
        """Does one iteration of `loop` process one batch or step (not one layer
        or one time step of a single forward)?"""
        return (
            self.is_training_loop(loop)
            or self.iterates_batches(loop)
            or self.has_backward(loop)
            or self.is_eval_loop(loop)
        )

    def is_eval_loop(self, loop: cst.CSTNode) -> bool:
        """A loop that runs a model once per evaluation batch."""
        if not isinstance(loop, (cst.For, cst.While)) or not self.runs_model(loop):
            return False
        scope = self.model.scope_of(loop)
        return (
            self.iterates_eval_data(loop)
            or self.follows_model_eval(loop)
            or (
                self.is_eval_function(scope)
                and self.provenance.class_kind(scope) != "module"
                and not self._counts(loop)  # `for t in range(n)`: decode steps or examples, not batches
            )
        )

    def _counts(self, loop: cst.CSTNode) -> bool:
        """A `while` loop, or a `for` over `range(...)` (possibly enumerated)."""
        if not isinstance(loop, cst.For):
            return True
        iterable = loop.iter
        if isinstance(iterable, cst.Call) and reads_as_name(iterable.func, "enumerate") and iterable.args:
            iterable = iterable.args[0].value
        return isinstance(iterable, cst.Call) and reads_as_name(iterable.func, "range")

    def bound_in(self, region: cst.CSTNode) -> set[str]:
        """Names (re)bound inside `region`, a loop's own target included."""
        names: set[str] = set()
        if isinstance(region, cst.For):
            names.update(target_names(region.target))
        tree = self.model.tree
        for node_type in (cst.Assign, cst.AugAssign, cst.AnnAssign, cst.For, cst.NamedExpr):
            for node in tree.descendants(region, node_type):
                if isinstance(node, cst.Assign):
                    for t in node.targets:
                        names.update(target_names(t.target))
                else:
                    names.update(target_names(node.target))
        return names

    def runs_conditionally(self, node: cst.CSTNode, region: cst.CSTNode) -> bool:
        """Inside `region`, does `node` run only on some iterations (under an `if`
        that depends on the iteration, in an `except` handler, ...)?

        An `if` on something the loop never changes (`if torch.cuda.is_available():`)
        is no guard: it takes the same branch on every iteration."""
        varying: set[str] | None = None
        for anc in self.model.tree.ancestors(node):
            if anc is region:
                return False
            if isinstance(anc, (cst.ExceptHandler, cst.IfExp, cst.BooleanOperation, cst.While)):
                return True
            if isinstance(anc, (cst.For,)) and anc is not region:
                return True
            if isinstance(anc, cst.If):
                if varying is None:
                    varying = self.bound_in(region)
                test_names = set(names_in(anc.test))
                calls = [c for c in self.model.tree.descendants(anc.test, cst.Call) if method_name(c) not in _INVARIANT_CALLS]
                if test_names & varying or calls:
                    return True
        return False

    def step_region(self, node: cst.CSTNode) -> cst.CSTNode | None:
        """The innermost step loop around `node`, or its per-step framework method."""
        for loop in self.model.enclosing_loops(node):
            if self.is_step_loop(loop):
                return loop
        scope = self.model.scope_of(node)
        if isinstance(scope, cst.FunctionDef) and (
            self.per_step_method(scope) or self.called_per_step(scope) or self.is_module_forward(scope)
        ):
            return scope
        return None

    def in_training_mode(self, node: cst.CSTNode) -> bool:
        """Under `if self.training:` (a running statistic's update, as in BatchNorm)."""
        for anc in self.model.tree.ancestors(node):
            test = code(anc.test) if isinstance(anc, cst.If) else ""
            if "self.training" in test and "not self.training" not in test:
                return self.model.tree.contains(anc.body, node)
            if isinstance(anc, cst.FunctionDef):
                return False
        return False

    def is_module_forward(self, func: cst.FunctionDef) -> bool:
        """`forward` of a module class of this file: it runs once per micro-batch."""
        return func.name.value == "forward" and self.provenance.class_kind(func) is not None

    def per_step_method(self, func: cst.FunctionDef) -> bool:
        """Does a framework call `func` once per batch? A framework hook, or a
        method named like one (`training_step`) whose framework is not known."""
        hook = self.model.frameworks.hook(func)
        if hook is not None:
            return hook.per_step
        return func.name.value in PER_STEP_NAMES

    def called_per_step(self, func: cst.FunctionDef) -> bool:
        """Is every call site of `func` in this file inside a step loop (skorch's
        `validation_step`, looped over by `run_valid_epoch`)?"""
        sites = self.model.call_sites().get(func, ())
        return bool(sites) and all(
            any(self.is_step_loop(loop) for loop in self.model.enclosing_loops(site)) for site in sites
        )

    def train_step_method(self, func: cst.FunctionDef) -> bool:
        """A framework hook (or a method named like one) run once per training step."""
        hook = self.model.frameworks.hook(func)
        if hook is not None:
            return hook.per_step and not hook.evaluation
        return func.name.value in TRAIN_STEP_NAMES

    def eval_step_method(self, func: cst.FunctionDef) -> bool:
        """A framework hook run once per evaluation or prediction batch."""
        hook = self.model.frameworks.hook(func)
        return hook is not None and hook.per_step and hook.evaluation

    def iterates_eval_data(self, loop: Loop) -> bool:
        if not isinstance(loop, cst.For):
            return False
        return bool(_EVAL_LOADER.search(code(loop.iter)))

    def follows_model_eval(self, node: cst.CSTNode) -> bool:
        """Is `node` after a `X.eval()` in its scope, with no `X.train()` in between?"""
        scope = self.model.scope_of(node)
        tree = self.model.tree
        position = tree.order[id(node)]
        last_eval = last_train = -1
        for call in tree.descendants(scope, cst.Call):
            order = tree.order[id(call)]
            if order >= position:
                break
            if self.model.scope_of(call) is not scope or not isinstance(call.func, cst.Attribute):
                continue
            method = call.func.attr.value
            if method == "eval" and not call.args:
                last_eval = order
            elif method == "train":
                arg = call_arg(call, 0, "mode")
                if arg is None or not (isinstance(arg.value, cst.Name) and arg.value.value == "False"):
                    last_train = order
                else:
                    last_eval = order
        return last_eval > last_train

    def eval_region(self, node: cst.CSTNode) -> cst.CSTNode | None:
        """What one evaluation batch is for `node`: the innermost loop around it
        that runs evaluation batches, or a framework evaluation step hook."""
        loops = self.model.enclosing_loops(node)
        if not loops:
            scope = self.model.scope_of(node)
            if isinstance(scope, cst.FunctionDef) and self.eval_step_method(scope):
                return scope
            return None
        for loop in loops:
            if self.is_training_loop(loop):
                return None
            if self.is_eval_loop(loop) or (
                self.runs_model(loop) and self.iterates_batches(loop) and self.model.grad_state(loop) is Grad.OFF
            ):
                return loop
        return None

    def runs_model(self, loop: cst.CSTNode) -> bool:
        """Does each iteration call a model/module (an evaluation *batch*)?"""
        provenance = self.provenance
        return any(provenance.is_module_call(c) for c in self.model.tree.descendants(loop.body, cst.Call))

    # -- what outlives an iteration ----------------------------------------------
    def store_of(self, statement: cst.CSTNode) -> Store | None:
        key = id(statement)
        if key not in self._stores:
            self._stores[key] = self._store_of(statement)
        return self._stores[key]

    def _store_of(self, statement: cst.CSTNode) -> Store | None:
        if isinstance(statement, cst.Expr) and isinstance(statement.value, cst.Call):
            call = statement.value
            if not isinstance(call.func, cst.Attribute):
                return None
            method = call.func.attr.value
            container = call.func.value
            if method in _STORE_METHODS:
                arg = call_arg(call, _STORE_METHODS[method])
                return Store(statement, container, arg.value, "append") if arg else None
            if method == "update" and call.args and self._is_meter(container, statement):
                return Store(statement, container, call.args[0].value, "update")
            if method in _IN_PLACE and call.args:
                # `self.running_mean.mul_(m).add_(mean * (1 - m))`: a buffer updated in place
                while isinstance(container, cst.Call) and method_name(container) in _IN_PLACE:
                    container = container.func.value
                if isinstance(container, cst.Attribute) and root_name(container) == "self":
                    return Store(statement, container, call.args[0].value, "in-place")
            return None
        if isinstance(statement, cst.AugAssign) and isinstance(statement.operator, _ACCUMULATING_OPS):
            if isinstance(statement.target, (cst.Name, cst.Attribute)):
                # `outs += [out]` grows a list like append; `total += loss` accumulates
                kind = "append" if isinstance(statement.value, (cst.List, cst.Tuple)) else "accumulate"
                return Store(statement, statement.target, statement.value, kind)
            return None
        if isinstance(statement, cst.Assign) and len(statement.targets) == 1:
            target = statement.targets[0].target
            if isinstance(target, cst.Subscript):
                return Store(statement, target.value, statement.value, "subscript")
            if _pairs_subscripts(target, statement.value):
                # `losses[i], costs[i] = loss, cost`: each value is kept in its container
                return Store(statement, target.elements[0].value.value, statement.value, "subscript")
            if isinstance(target, (cst.Name, cst.Attribute)):
                other = self.accumulated_operand(target, statement.value)
                if other is not None:
                    kind = "concat" if isinstance(statement.value, cst.Call) else "accumulate"
                    return Store(statement, target, other, kind)
        return None

    def _is_meter(self, container: cst.BaseExpression, at: cst.CSTNode) -> bool:
        """`meter.update(v)`: named like a meter, or made by a `...Meter(...)` class."""
        if _METER.search(code(container)):
            return True
        if isinstance(container, cst.Name):
            for binding in self.model.bindings(self.model.scope_of(at), container.value):
                if isinstance(binding.value, cst.Call) and (
                    _METER.search(code(binding.value.func)) or self._keeping_class(binding.value.func)
                ):
                    return True
        return False

    def _reset_per_call(self, store: Store, region: cst.CSTNode) -> bool:
        """Is the `self` container emptied on every run of `region` (rebound in it),
        or, for a module's `forward`, by another method of the class (`reset()`,
        a hook run after each step), so that it does not grow without bound?"""
        container = code(store.container)
        tree = self.model.tree
        places = [region]
        if isinstance(region, cst.FunctionDef) and self.is_module_forward(region):
            cls = self.model.enclosing_class(region)
            places = [f for f in tree.descendants(cls, cst.FunctionDef) if f.name.value != "__init__"]
        for place in places:
            for kind in (cst.Assign, cst.Expr, cst.Del):
                for statement in tree.descendants(place, kind):
                    if statement is not store.statement and _resets(statement, container):
                        return True
        return False

    def _keeping_class(self, func: cst.BaseExpression) -> bool:
        """A class of this file whose `update(value)` keeps `value` on `self`
        (appends it, adds it to a total)."""
        if not isinstance(func, cst.Name):
            return False
        for method in self.model.functions.get("update", ()):
            cls = self.model.enclosing_class(method)
            params = [p.name.value for p in method.params.params]
            if cls is None or cls.name.value != func.value or len(params) < 2:
                continue
            for kind in (cst.Expr, cst.Assign, cst.AugAssign):
                for statement in self.model.tree.descendants(method.body, kind):
                    store = self.store_of(statement)
                    if store is not None and root_name(store.container) == "self" and params[1] in names_in(store.value):
                        return True
        return False

    def accumulated_operand(self, target: cst.BaseExpression, value: cst.BaseExpression) -> cst.BaseExpression | None:
        """For `t = t + v`, `t = 0.9 * t + 0.1 * v` or `t = torch.cat([t, v])`: the `v`."""
        if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, (cst.Add, cst.Subtract)):
            in_left, in_right = _mentions(value.left, target), _mentions(value.right, target)
            if in_left and not in_right:
                return value.right
            if in_right and not in_left:
                return value.left
        if isinstance(value, cst.Call) and (self.model.imports.resolve(value.func) or "") in ("torch.cat", "torch.stack"):
            seq = value.args[0].value if value.args else None
            if isinstance(seq, (cst.List, cst.Tuple)) and len(seq.elements) == 2:
                first, second = (e.value for e in seq.elements)
                if same_code(first, target):
                    return second
                if same_code(second, target):
                    return first
        return None

    def is_generated_sequence(self, store: Store, region: cst.CSTNode) -> bool:
        """`input = torch.cat([input, token], 0)` where the model runs on `input` in the
        same loop: the sequence an autoregressive loop is generating, the model's next
        input by design and bounded by the number of tokens asked for."""
        if store.kind != "concat":
            return False
        grown = code(store.container)
        return any(
            self.provenance.is_module_call(call) and any(_mentions_text(arg.value, grown) for arg in call.args)
            for call in self.model.tree.descendants(region, cst.Call)
        )

    def outlives(self, store: Store, region: cst.CSTNode) -> bool:
        """Does the container of `store` survive from one iteration of `region` to the next?"""
        root = root_name(store.container)
        if root is None:
            return False
        scope = self.model.scope_of(store.statement)
        if root == "self":
            return not self._reset_per_call(store, region)
        if isinstance(region, cst.FunctionDef):
            # a local of a per-step function dies with the step; a container reached through a
            # context object the caller passes in (`ctx.outputs`, `kwargs["cache"]`) does not
            if self.model.bindings(self.model.module, root) and not self.model.bindings(scope, root):
                return root not in self.model.params(scope)  # a module-level list: it lives as long as the program
            return (
                self.is_module_forward(region)
                and root in self.model.params(scope)
                and not isinstance(store.container, cst.Name)
            )
        tree = self.model.tree
        for binding in self.model.bindings(scope, root):
            if binding.node is store.statement:
                continue
            if tree.contains(region, binding.node):
                if isinstance(binding.node, (cst.Assign, cst.AugAssign)) and self.store_of(binding.node) is not None:
                    continue  # another accumulation into the same container
                return False
        bound_before = any(tree.order[id(b.node)] < tree.order[id(region)] for b in self.model.bindings(scope, root))
        return bound_before or root in self.model.params(scope) or bool(self.model.bindings(self.model.module, root))


def _mentions_text(expr: cst.BaseExpression, text: str) -> bool:
    """Does `expr` read the value spelled `text` (`input`, `input[-ctx:]`, `self.tokens`)?"""
    stack: list[cst.CSTNode] = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, (cst.Name, cst.Attribute)) and code(node) == text:
            return True
        stack.extend(node.children)
    return False


def _resets(statement: cst.CSTNode, container: str) -> bool:
    """`self.x = []`, `self.x.clear()`, `del self.x[:]`: `container` is emptied here."""
    if isinstance(statement, cst.Assign):
        return any(code(t.target) == container for t in statement.targets)
    if isinstance(statement, cst.Expr) and isinstance(statement.value, cst.Call):
        call = statement.value
        return method_name(call) == "clear" and code(call.func.value) == container
    if isinstance(statement, cst.Del):
        return container in code(statement.target)
    return False


def _pairs_subscripts(target: cst.BaseExpression, value: cst.BaseExpression) -> bool:
    """`a[i], b[i] = x, y`: a tuple of subscripts assigned a tuple of as many values."""
    return (
        isinstance(target, (cst.Tuple, cst.List))
        and isinstance(value, (cst.Tuple, cst.List))
        and len(target.elements) == len(value.elements) > 1
        and all(isinstance(e.value, cst.Subscript) and not isinstance(e, cst.StarredElement) for e in target.elements)
        and not any(isinstance(e, cst.StarredElement) for e in value.elements)
    )


def _mentions(expr: cst.BaseExpression, operand: cst.BaseExpression) -> bool:
    """Is an expression that reads as `operand` an operand of the arithmetic in `expr`?"""
    if same_code(expr, operand):
        return True
    if isinstance(expr, cst.BinaryOperation):
        return _mentions(expr.left, operand) or _mentions(expr.right, operand)
    if isinstance(expr, cst.UnaryOperation):
        return _mentions(expr.expression, operand)
    return False


def receiver_name(expr: cst.BaseExpression) -> str:
    """The last name of a receiver: `opt` for `self.opt`, `optimizer` for `optimizer`."""
    return expr.attr.value if isinstance(expr, cst.Attribute) else (root_name(expr) or "")
