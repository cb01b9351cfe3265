"""Loops: which train, which evaluate, and what outlives one iteration."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Callable

import libcst as cst

from memlint.analysis.syntax.expressions import (
    call_arg,
    code,
    literal_parts,
    method_name,
    names_in,
    reads_as_name,
    root_name,
    same_code,
    target_names,
)
from memlint.analysis.flow.bindings import unpacked
from memlint.analysis.library import (
    BATCH_LOADERS, FRESH_MAPPINGS, ITERATING_WRAPPERS, CONCATENATIONS, CONTAINER_STORES, DETACHED_VIEW_ATTRIBUTES, DETACHED_VIEW_METHODS, GRAPH_FEATURE_FRAMES,
    GRAPH_LOCAL_SCOPES, KEEPS_ARGUMENT, MODULE_SELF_RETURNING, MODULE_TRAINING_FLAG, MODULE_TRAINING_SWITCH, PREPARING_METHODS,
    SANITIZING_UPDATE_CLASSES, SPLITTERS, SPLITTING_METHODS, stepping_kind,
)
from memlint.analysis.regions.frameworks import PER_STEP_NAMES, TRAIN_STEP_NAMES, named_for_evaluation
from memlint.analysis.regions.grad import Grad
from memlint.analysis.syntax.calls import keyword_rest
from memlint.analysis.syntax.imports import dotted
from memlint.analysis.syntax.scopes import Loop, exits

if TYPE_CHECKING:
    from memlint.analysis.context import FileContext
    from memlint.analysis.flow.provenance import Provenance

_EVAL_LOADER = re.compile(
    r"(^|[^a-z])(val|valid|validation|test|testing|eval|evaluation|dev|holdout)([^a-z]|$|loader|dataloader|set|data|iter)",
    re.IGNORECASE,
)
# Iterables of batches: a loop over one of these runs once per step.
_BATCHES = re.compile(
    r"loader|dataset|batches|data_iter|dataiter|epoch_iterator|train_iter|(^|[^a-z])(data|ds|dl|batch_iter)([^a-z]|$)",
    re.IGNORECASE,
)
# calls that hold every element of the comprehension they are handed at once
# Iterables that surely hold many batches: a comprehension over one collects the whole data set.
_LOADER = re.compile(r"loader|dataset|batches|data_iter|dataiter|epoch_iterator|train_iter|batch_iter", re.IGNORECASE)
OPTIMIZER = re.compile(r"optim|opt$|^opt|solver", re.IGNORECASE)
_SCALER = re.compile(r"scaler", re.IGNORECASE)
# `lr_scheduler.step()`, `opt_param_scheduler.step(increment=0)`: a learning-rate schedule moves on, no weight does
_SCHEDULER = re.compile(r"sched", re.IGNORECASE)
_METER = re.compile(r"meter|avg|average|tracker|stats|history|record", re.IGNORECASE)
_INVARIANT_CALLS = {"is_available", "device_count", "is_initialized", "get_world_size", "get_rank"}
_IN_PLACE = {"add_", "sub_", "mul_", "div_", "lerp_", "addcmul_", "addcdiv_", "copy_"}
_ACCUMULATING_OPS = (cst.AddAssign, cst.SubtractAssign, cst.MultiplyAssign, cst.DivideAssign)


@dataclass(frozen=True)
class Store:
    """A statement that keeps `value` in `container` (`losses.append(loss)`, `total += loss`)."""

    statement: cst.CSTNode
    container: cst.BaseExpression
    value: cst.BaseExpression
    # "append", "subscript", "accumulate" (`+=`, `t = t + v`), "concat" (`t = torch.cat([t, v])`),
    # "update" (a meter, or a callee that keeps its argument), "in-place" (`self.buf.mul_(m).add_(v)`),
    # "returned" (a step's return that the framework keeps: `container` names its list)
    kind: str
    # how the value gets there when a callee keeps it, or what was assumed of a callee whose
    # definition is not visible (for the message); empty for a store written here
    via: str = ""
    keep: cst.CSTNode | None = None  # the callee's statement that keeps it, where it is in this file
    assumed: bool = False  # `via` is an assumption about a callee whose definition is out of sight
    grows: bool = False  # a callee of another file keeps it by adding one more entry each call (its facts)


def _same_or_window(expr: cst.BaseExpression, target: cst.BaseExpression) -> bool:
    """Is `expr` the target itself, or a slice of it (`t[-n:]`)?"""
    if type(expr) is cst.Subscript and all(type(e.slice) is cst.Slice for e in expr.slice):
        expr = expr.value
    return same_code(expr, target)


def _tested_calls(test: cst.BaseExpression) -> list[cst.Call]:
    """The calls a condition runs as its operands: the test itself, or an operand of `and`, `or`, `not`."""
    kind = type(test)
    if kind is cst.Call:
        return [test]
    if kind is cst.BooleanOperation:
        return [*_tested_calls(test.left), *_tested_calls(test.right)]
    if kind is cst.UnaryOperation and type(test.operator) is cst.Not:
        return _tested_calls(test.expression)
    return []


def _operands(test: cst.BaseExpression, operator: type) -> list[cst.BaseExpression]:
    """The operands of a chain of `and` (all hold where the body runs) or of `or` (none holds where the
    test is false), or the test itself."""
    if type(test) is cst.BooleanOperation and type(test.operator) is operator:
        return [*_operands(test.left, operator), *_operands(test.right, operator)]
    return [test]


def _says_training(expr: cst.BaseExpression) -> bool:
    """`self.training`, or `self.train()` (`self.train(True)`), which switches training mode on and returns the module."""
    if type(expr) is cst.Call:
        switches_on = not expr.args or (type(expr.args[0].value) is cst.Name and expr.args[0].value.value == "True")
        return switches_on and type(expr.func) is cst.Attribute and _self_attribute(expr.func) == MODULE_TRAINING_SWITCH
    return type(expr) is cst.Attribute and _self_attribute(expr) == MODULE_TRAINING_FLAG


def _leaves_outside_training(statement: cst.CSTNode) -> bool:
    """`if not self.training: return x` (or `raise`, or `not self.training or ...`): the statements after it
    run in training mode only."""
    return type(statement) is cst.If and exits(statement) and any(
        type(d) is cst.UnaryOperation and type(d.operator) is cst.Not and _says_training(d.expression)
        for d in _operands(statement.test, cst.Or)
    )


def _before(block: cst.IndentedBlock, statement: cst.CSTNode) -> list[cst.CSTNode]:
    """The statements of `block` before `statement` (one of them)."""
    for i, s in enumerate(block.body):
        if s is statement:
            return list(block.body[:i])
    return []


class Loops:
    def __init__(self, model: "FileContext", provenance: "Provenance") -> None:
        self.model = model
        self.provenance = provenance
        self._step_loop: dict[int, bool] = {}
        self._stores: dict[int, Store | None] = {}  # id(statement) -> store_of(statement): rules ask again and again
        self._drivers: dict[int, bool] = {}  # id(function) -> runs_several_steps(function)
        self._step_loops: dict[int, bool] = {}  # id(loop) -> is_step_loop(loop): asked for every statement in it
        self._step_functions: dict[int, bool] = {}  # id(function) -> does a framework or a step loop run it per step
        self._trains: dict[int, bool] = {}  # id(function) -> trains(function): asked of every exported function
        self._trained_elsewhere: dict[int, bool] = {}  # id(region) -> `_trains_elsewhere`: asked per statement
        self._trainer_called: dict[int, bool] = {}  # id(region) -> `_calls_trainer`: asked per statement
        self._eval_functions: dict[int, bool] = {}  # id(function) -> is_eval_function(function)
        self._collected: dict[int, tuple[Store, cst.CompFor] | None] = {}  # id(assignment) -> comprehension_store

    # -- where a node sits -------------------------------------------------------
    # -- training ---------------------------------------------------------------
    def is_step_call(self, call: cst.Call) -> bool:
        """`loss.backward()`, `accelerator.backward(loss)`, `optimizer.step()`."""
        return self.provenance.backwarded_expressions(call) is not None or self.is_optimizer_step(call)

    def is_optimizer_step(self, call: cst.Call) -> bool:
        """`optimizer.step()`, `self.opt.step()`, `scaler.step(optimizer)`."""
        if method_name(call) != "step" or not isinstance(call.func, cst.Attribute):
            return False
        made = self.stepper_kind(call.func.value, call)
        if made is not None:  # what made the object decides, whatever it is called
            return made == "optimizer" or (made == "scaler" and bool(call.args))
        last = receiver_name(call.func.value)
        if _SCHEDULER.search(last):
            return False
        return bool(OPTIMIZER.search(last)) or (bool(_SCALER.search(last)) and bool(call.args))

    def stepper_kind(self, receiver: cst.BaseExpression, at: cst.CSTNode, depth: int = 0) -> str | None:
        """What `.step()` on `receiver` does, by what made the object it holds (a name or a `self`
        attribute bound to it here): "optimizer", "scheduler" or "scaler" for a class of the library
        table (`STEPPING_CLASSES`) or a class of the file or the project deriving from one, "module" for
        a module class of the file or the project, "other" for a class of the file or the project that
        derives from none of them (a weight average);
        None where nothing here makes it (a parameter, a callee out of sight, a part of what one
        returns), and only its name is left."""
        if depth >= 3:
            return None
        model = self.model
        if type(receiver) is cst.Name:
            bindings = self.provenance.reaching_bindings(model.scope_of(at), receiver.value, at)
            if not bindings or any(type(b.node) not in (cst.Assign, cst.AnnAssign) for b in bindings):
                return None  # a parameter, a loop's target: made out of sight
            values: list[cst.BaseExpression | None] = [self._prepared(*unpacked(b)) for b in bindings]
        elif type(receiver) is cst.Attribute and type(receiver.value) is cst.Name and receiver.value.value == "self":
            values = list(self.provenance.self_attribute_values(receiver.attr.value, at))
        else:
            return None
        # (`self.optimizer = None` in `__init__`, set later: None has no `step()` to run)
        found = {self._made_stepper(v, depth) if v is not None else None for v in values if not reads_as_name(v, "None")}
        return found.pop() if len(found) == 1 else None

    def _prepared(self, value: cst.BaseExpression | None, index: int | None) -> cst.BaseExpression | None:
        """What an unpacked name (`index`) of `value` holds where the file shows it: the argument in
        that place of a method that hands back what it is given (`model, opt = accelerator.prepare(model,
        opt)`: `PREPARING_METHODS`); None for an unpacked result of anything else."""
        if index is None or value is None:
            return value
        return self._handed_back(value, index)

    def _handed_back(self, value: cst.BaseExpression, index: int) -> cst.BaseExpression | None:
        """The argument in place `index` of a call of a method that hands back what it is given
        (`PREPARING_METHODS`); None for anything else."""
        if type(value) is not cst.Call or type(value.func) is not cst.Attribute or len(value.args) <= index:
            return None
        arg = value.args[index]
        if arg.star or arg.keyword is not None:
            return None
        made = self.provenance.receiver_class(value.func.value, value)
        return arg.value if value.func.attr.value in PREPARING_METHODS.get(made, ()) else None

    def _made_stepper(self, value: cst.BaseExpression, depth: int) -> str | None:
        """What `.step()` does on the object `value` makes or names (`stepper_kind`)."""
        if type(value) in (cst.Name, cst.Attribute):
            return self.stepper_kind(value, value, depth + 1)
        if type(value) is not cst.Call:
            return None
        model = self.model
        kind = stepping_kind(model.imports.resolve(value.func) or "")
        if kind is not None:
            return kind
        handed = self._handed_back(value, 0) if len(value.args) == 1 else None
        if handed is not None:  # `optimizer = accelerator.prepare(optimizer)`
            return self._made_stepper(handed, depth + 1)
        if type(value.func) is cst.Name and value.func.value in model.calls.classes:
            return self.class_steps_as(model.calls.classes[value.func.value])
        facts = model.project.constructed(value)
        if facts is None:
            return None
        if facts.get("stepper"):
            return facts["stepper"]
        if facts.get("kind") in ("module", "lightning"):
            return "module"
        # a class of no base is none of the table's (one whose bases are out of sight may be)
        return None if facts.get("bases") or facts.get("local_bases") else "other"

    def class_steps_as(self, cls: cst.ClassDef, seen: frozenset[str] = frozenset()) -> str | None:
        """What `.step()` does on an object of this file's class `cls`, by its bases (`stepper_kind`);
        None where a base is out of sight."""
        if cls.name.value in self.provenance.class_kinds():
            return "module"
        model = self.model
        for base in cls.bases:
            if base.keyword is not None or reads_as_name(base.value, "object"):
                continue
            local = model.calls.classes.get(base.value.value) if type(base.value) is cst.Name else None
            if local is not None:
                kind = None if local.name.value in seen else self.class_steps_as(local, seen | {cls.name.value})
            else:
                kind = stepping_kind(model.imports.resolve(base.value) or "")
                if kind is None:
                    kind = (model.project.klass(base.value) or {}).get("stepper")
            if kind not in ("other", "module"):
                return kind
        return "other"

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

    def runs_several_steps(self, func: cst.FunctionDef) -> bool:
        """A driver, not a step: `func` steps only through per-step functions of this file, and calls
        one of them more than once in a row (`loss1 = run_forward_backward(model1, x)` ...
        `loss2 = run_forward_backward(model2, x)`) or calls a driver."""
        key = id(func)
        if key in self._drivers:
            return self._drivers[key]
        self._drivers[key] = False  # recursion guard
        seen: set[int] = set()
        several = False
        for call in self.model.tree.descendants(func, cst.Call):
            if self._innermost_region(call) is not func:
                continue
            if self.is_step_call(call):
                return False  # it steps itself
            for callee in self.model.local_callees(call):
                if callee is func or not self.steps_once(callee):
                    continue
                several = several or id(callee) in seen or self.runs_several_steps(callee)
                seen.add(id(callee))
        self._drivers[key] = several
        return several

    def iterates_literal(self, loop: cst.CSTNode) -> bool:
        """A `for` over a tuple or list written out (`for model in (model_a, model_b)`): a few variants
        run one after another, not one step per iteration."""
        return isinstance(loop, cst.For) and isinstance(loop.iter, (cst.Tuple, cst.List)) and bool(loop.iter.elements)

    def _innermost_region(self, node: cst.CSTNode) -> cst.CSTNode | None:
        for anc in self.model.tree.ancestors(node):
            kind = type(anc)  # exact types: LibCST's node classes have no subclasses
            if kind is cst.For or kind is cst.While or kind is cst.FunctionDef or kind is cst.Lambda:
                return anc
        return None

    def has_backward(self, region: cst.CSTNode) -> bool:
        """Does `region` differentiate anything (`backward`, `autograd.grad`)?"""
        return bool(self.provenance.backward_calls(region))

    def unrolls_differentiation(self, loop: cst.CSTNode) -> bool:
        """Does `loop` unroll an optimization for a higher-order backward after it (a meta-learner's inner
        steps): every differentiation in it keeps its graph (`torch.autograd.grad(r, w, create_graph=True)`),
        and it steps the very inputs it differentiates with what it computes from the gradient (`w = w -
        alpha * g`)? Then every iteration's graph is part of the one the caller differentiates, kept on
        purpose; a training loop backwards its loss, and an evaluation loop that takes forces does not step
        the positions it differentiates."""
        calls = [call for call, _ in self.provenance.backward_calls(loop)]
        inputs: set[str] = set()
        derived: set[str] = set()
        for call in calls:
            taken = call_arg(call, 1, "inputs")
            if not _keeps_graph(call) or taken is None:
                return False
            inputs.update(names_in(taken.value))
            statement = self.model.tree.statement_of(call)
            if isinstance(statement, cst.Assign):
                derived.update(n for t in statement.targets for n in names_in(t.target))
        assigns = list(self.model.tree.descendants(loop, cst.Assign))
        grown = True
        while grown:  # what is computed from the gradients, in the loop
            grown = False
            for assign in assigns:
                targets = {n for t in assign.targets for n in names_in(t.target)}
                if set(names_in(assign.value)) & derived and not targets <= derived:
                    derived |= targets
                    grown = True
        return any(
            type(t.target) is cst.Name and t.target.value in inputs and set(names_in(assign.value)) & (derived - {t.target.value})
            for assign in assigns
            for t in assign.targets
        )

    def trains_each_iteration(self, region: cst.CSTNode) -> bool:
        """Does each iteration of `region` finish its own graph: it differentiates, or it takes an
        optimisation step (also through a per-step function of this file, `self.train_one_batch()`,
        or through a function, of this file or of another by its facts, that trains in a loop of its
        own, `train_one_epoch(...)`)?"""
        return (
            self.has_backward(region)
            or self.is_training_loop(region)
            or self._trains_elsewhere(region)
            or self._calls_trainer(region)
        )

    def optimizes(self, region: cst.CSTNode) -> bool:
        """Does `region` take an optimisation step (`optimizer.step()` in it, or through a function that
        trains), not only differentiate (a Grad-CAM loop's `loss.backward()` updates no weight)?"""
        return (
            any(self.is_optimizer_step(call) for call in self.model.tree.descendants(region, cst.Call))
            or self._trains_elsewhere(region)
            or self._calls_trainer(region)
        )

    def _calls_trainer(self, region: cst.CSTNode) -> bool:
        """Does `region` itself call a function of this file that trains (an epoch loop around
        `train_one_epoch(model, loader, optimizer)`), as `_trains_elsewhere` asks of other files?"""
        key = id(region)
        if key not in self._trainer_called:
            model = self.model
            scope = region if type(region) is cst.FunctionDef else model.scope_of(region)
            self._trainer_called[key] = any(
                self.trains(f)
                for call in model.tree.descendants(region, cst.Call)
                if model.scope_of(call) is scope
                for f in model.local_callees(call)
                if f is not region
            )
        return self._trainer_called[key]

    def _trains_elsewhere(self, region: cst.CSTNode) -> bool:
        """Does `region` itself call an imported function that the project's facts say trains?"""
        key = id(region)
        if key not in self._trained_elsewhere:
            model = self.model
            imports = model.imports
            scope = region if type(region) is cst.FunctionDef else model.scope_of(region)
            self._trained_elsewhere[key] = any(
                model.project.trains(call)
                for call in model.tree.descendants(region, cst.Call)
                # (only an imported name can be another file's function)
                if (root := (dotted(call.func) or "").partition(".")[0])
                and (root in imports.aliases or root in imports.relative)
                and model.scope_of(call) is scope
            )
        return self._trained_elsewhere[key]

    def trains(self, func: cst.FunctionDef) -> bool:
        """Does `func` train anywhere in its body (its loops too): it differentiates, steps or zeroes
        an optimizer, hands a value with autograd history to a callable it is handed and drops what
        that returns (`loss_scaler(loss, optimizer)`: a backward it cannot see), or calls a function
        that trains (of this file, or of another by its facts)? A caller's loop around it trains."""
        key = id(func)
        if key in self._trains:
            return self._trains[key]
        self._trains[key] = False  # recursion guard
        model = self.model
        params = model.params(func)
        result = self.has_backward(func) or self._trains_elsewhere(func)
        for call in () if result else model.tree.descendants(func.body, cst.Call):
            if model.scope_of(call) is not func:
                continue
            if self.is_step_call(call) or method_name(call) == "zero_grad" or self._hands_graph_to_param(call, params):
                result = True
            elif any(self.trains(f) for f in model.local_callees(call) if f is not func):
                result = True
            if result:
                break
        self._trains[key] = result
        return result

    def _hands_graph_to_param(self, call: cst.Call, params: set[str]) -> bool:
        """`loss_scaler(loss, optimizer, ...)` as a statement of its own: a callable the function is
        handed gets a value with history and nothing it returns is used; it backwards it (or keeps it)."""
        if type(call.func) is not cst.Name or call.func.value not in params:
            return False
        if type(self.model.tree.parent_of(call)) is not cst.Expr:
            return False
        return any(self.provenance.carries_history(arg.value, call) for arg in call.args)

    # -- evaluation --------------------------------------------------------------
    def is_eval_function(self, func: cst.CSTNode) -> bool:
        if type(func) is not cst.FunctionDef:  # (asked of a module too: 40k times on the bench corpus)
            return False
        known = self._eval_functions.get(id(func))  # (asked per call in it: 33k times of 5k functions)
        if known is None:
            known = self._eval_functions[id(func)] = not self.is_test_function(func) and (  # pytest functions are no evaluation
                named_for_evaluation(func.name.value) or self.model.frameworks.inference_method(func)
            )
        return known

    def is_test_function(self, func: cst.FunctionDef) -> bool:
        """A pytest test (`test*` in a test file): it runs once, to check, not to evaluate data."""
        return func.name.value.startswith("test") and self._is_test_file()

    def _is_test_file(self) -> bool:
        path = self.model.path.replace("\\", "/")
        base = path.rsplit("/", 1)[-1]
        return base.startswith("test_") or base.endswith("_test.py") or base == "conftest.py" or "/tests/" in f"/{path}"

    def iterates_batches(self, loop: cst.CSTNode) -> bool:
        if type(loop) is cst.While:
            return self._draws_batches(loop)
        if not isinstance(loop, cst.For) or self._iterates_a_mapping(loop):
            return False
        defined = self._iterates_a_loader(loop.iter, loop)
        if defined is not None:
            return defined  # what the iterable is made by decides, whatever it is called
        text = code(loop.iter)
        return bool(_BATCHES.search(text) or _EVAL_LOADER.search(text))

    def _iterates_a_loader(self, iterable: cst.BaseExpression, at: cst.CSTNode, depth: int = 0) -> bool | None:
        """What the code that makes an iterable says of it: True for a loader of batches of the library
        table (`DataLoader(...)`, also through `enumerate`/`tqdm` and the names and `self` attributes
        bound to it), False for a mapping made here (`data = {...}`, `dict(...)`: a loop over it visits
        its keys); None where nothing here makes it (a parameter, a call out of sight), and only its
        name is left."""
        model = self.model
        if type(iterable) is cst.Call:
            resolved = model.imports.resolve(iterable.func) or ""
            if resolved in BATCH_LOADERS:
                return True
            position = ITERATING_WRAPPERS.get(resolved)
            inner = call_arg(iterable, position, "iterable") if position is not None else None
            if inner is not None:
                return self._iterates_a_loader(inner.value, at, depth)
            return False if resolved in FRESH_MAPPINGS else None
        if type(iterable) in (cst.Dict, cst.DictComp):
            return False
        if depth >= 3:
            return None
        if type(iterable) is cst.Name:
            values = [b.value for b in self.provenance.reaching_bindings(model.scope_of(at), iterable.value, at)]
        elif type(iterable) is cst.Attribute and type(iterable.value) is cst.Name and iterable.value.value == "self":
            values = self.provenance.self_attribute_values(iterable.attr.value, at)
        else:
            return None
        found = {self._iterates_a_loader(v, v, depth + 1) if v is not None else None for v in values}
        return found.pop() if len(found) == 1 else None

    def feeds_elements(self, loop: cst.CSTNode) -> bool:
        """A loop over batches by use, whatever its names: a `for` whose body runs a model on an element
        of what it iterates, the loop's own item (`for x in inputs: model(x)`) or an item of a sequence
        it indexes with its counter (`for j in range(n): model(inputs[j])`), also through the names bound
        from one (`x = inputs[j].to(device)`). Not a loop whose item is the model (`for layer in layers:
        x = layer(x)`), nor one whose model input comes from the step before (decoding, time steps)."""
        if type(loop) is not cst.For or self._iterates_a_mapping(loop) or self.iterates_parameters(loop):
            return False
        if self.iterates_chunks(loop):
            return False
        tree = self.model.tree
        items = set(target_names(loop.target))
        counted = self._counts(loop)
        derived: set[str] = set()  # names bound in the body from an element
        for assign in tree.descendants(loop.body, cst.Assign):
            if self._reads_element(assign.value, items, counted, derived):
                derived.update(n for t in assign.targets for n in target_names(t.target))
        calls = tree.descendants(loop.body, cst.Call)
        facts = self.model.module_facts  # type: ignore[attr-defined]
        regions = self.model.eval_regions  # type: ignore[attr-defined]

        def is_run(call: cst.Call) -> bool:  # (or through the project's code: `net.score(x)`)
            return self.provenance.is_module_call(call) or facts.runs_module(call) or regions.runs_through(call)

        if any(self._reads_element(c.func, items, counted, derived) and is_run(c) for c in calls):
            return False  # the model is the element: a loop over layers or models
        fed = any(any(self._reads_element(a.value, items, counted, derived) for a in c.args) and is_run(c) for c in calls)
        return fed and not self.decodes(loop)

    @staticmethod
    def _reads_element(expr: cst.BaseExpression, items: set[str], counted: bool, derived: set[str]) -> bool:
        """Does `expr` read an element of what a loop iterates: a name bound from one, the loop's item,
        or (in a counting loop) a subscript by its counter (`inputs[j]`)?"""
        if any(name in derived for name in names_in(expr)):
            return True
        if not counted:
            return any(name in items for name in names_in(expr))
        stack: list[cst.CSTNode] = [expr]
        while stack:
            node = stack.pop()
            if type(node) is cst.Subscript and any(items & set(names_in(s.slice)) for s in node.slice):
                return True  # `inputs[j]`, `inputs[j : j + size]`
            stack.extend(node.children)
        return False

    def _draws_batches(self, loop: cst.While) -> bool:
        """`while self.iter < self.max_iters: data_batch = next(data_iter)`: an iteration-based
        runner draws one batch per iteration from an iterator over batches (`iter(self.data_loader)`)."""
        scope = self.model.scope_of(loop)
        for call in self.model.tree.descendants(loop.body, cst.Call):
            if not (type(call.func) is cst.Name and call.func.value == "next" and call.args):
                continue
            source = call.args[0].value
            drawn = [source]
            if type(source) is cst.Name:
                drawn += [
                    b.value.args[0].value
                    for b in self.model.bindings(scope, source.value)
                    if type(b.value) is cst.Call and code(b.value.func) == "iter" and b.value.args
                ]
            if any(_BATCHES.search(code(d)) or _EVAL_LOADER.search(code(d)) for d in drawn):
                return True
        return False

    def _iterates_a_mapping(self, loop: cst.For) -> bool:
        """`for task in data: ... data[task] ...`, `for k, v in data.items()`: the entries of one
        mapping (the tasks of one batch), whatever the mapping is called."""
        if type(loop.iter) is cst.Call and method_name(loop.iter) in ("items", "keys", "values") and not loop.iter.args:
            return True
        if type(loop.target) is not cst.Name or type(loop.iter) not in (cst.Name, cst.Attribute):
            return False
        held, key = code(loop.iter), loop.target.value
        return any(
            code(sub.value) == held and len(sub.slice) == 1 and type(sub.slice[0].slice) is cst.Index
            and type(sub.slice[0].slice.value) is cst.Name and sub.slice[0].slice.value.value == key
            for sub in self.model.tree.descendants(loop.body, cst.Subscript)
        )

    def is_step_loop(self, loop: cst.CSTNode) -> bool:
        """Does one iteration of `loop` process one batch or step (not one layer
        or one time step of a single forward, nor one chunk of one batch)?"""
        key = id(loop)
        if key not in self._step_loops:
            self._step_loops[key] = self._is_step_loop(loop)
        return self._step_loops[key]

    def _is_step_loop(self, loop: cst.CSTNode) -> bool:
        if self.iterates_chunks(loop):
            return False  # `for part in torch.chunk(x, n)`: the pieces of one batch, within one step
        if self.iterates_parameters(loop):
            return False  # `for name, p in policy.named_parameters()`: one model's parameters, within one step
        if self.differentiates_graph_built_before(loop):
            return False  # `for i in range(y.shape[1]): grad(dx[:, i].sum(), y, create_graph=True)`: one Jacobian's rows
        if self.iterates_parts_of_batch(loop):
            return False  # `for i in range(len(data))` in `for data in loader`, which runs the model on data
        scope = self.model.scope_of(loop)
        if isinstance(scope, cst.FunctionDef) and self.is_module_forward(scope) and not self.is_training_loop(loop):
            return self.has_backward(loop)  # a forward's loops run over its layers, blocks or time steps
        return (
            self.is_training_loop(loop)
            or self.iterates_batches(loop)
            or self.has_backward(loop)
            or self.is_eval_loop(loop)
        )

    def iterates_parameters(self, loop: cst.CSTNode) -> bool:
        """A `for` over a module's parameters (`m.parameters()`, `m.named_parameters()`, enumerated):
        one term per parameter of one computation (a penalty, TRPO's per-parameter gradients of the
        KL divergence), bounded by the model's size, whatever it keeps or differentiates."""
        if not isinstance(loop, cst.For):
            return False
        iterable = loop.iter
        if isinstance(iterable, cst.Call) and code(iterable.func) == "enumerate" and iterable.args:
            iterable = iterable.args[0].value
        return isinstance(iterable, cst.Call) and method_name(iterable) in ("parameters", "named_parameters")

    def differentiates_graph_built_before(self, loop: cst.CSTNode) -> bool:
        """A `for` that differentiates, and only pieces of a graph built before it: every differentiation in
        it keeps its graph (`torch.autograd.grad(dx[:, i].sum(), y, create_graph=True)`) and reads, for what
        it differentiates and with respect to what, no name the loop binds but its own counter. It takes
        the rows of one Jacobian (a divergence, a Jacobian norm) with their graph for a later backward: one
        computation within a step, bounded by the tensor's size, whatever it keeps. Not a loop that runs a
        forward of its own (`energy = model(batch)`, then the forces `grad(energy, batch.pos, ...)`)."""
        if not isinstance(loop, cst.For):
            return False
        calls = [call for call, _ in self.provenance.backward_calls(loop)]
        tree = self.model.tree
        targets = [t.target for a in tree.descendants(loop.body, cst.Assign) for t in a.targets]  # type: ignore[attr-defined]
        for kind in (cst.AugAssign, cst.AnnAssign, cst.For, cst.NamedExpr):
            targets += [node.target for node in tree.descendants(loop.body, kind)]  # type: ignore[attr-defined]
        targets += [node.name for node in tree.descendants(loop.body, cst.AsName)]  # type: ignore[attr-defined]
        # (a store into an attribute or an item, `self.energy = model(x)`, rebinds what its root holds)
        bound = {name for target in targets for name in target_names(target) or [root_name(target)] if name}
        for call in calls:
            outputs, inputs = call_arg(call, 0, "outputs"), call_arg(call, 1, "inputs")
            if not _keeps_graph(call) or outputs is None or inputs is None:
                return False
            if bound & {*names_in(outputs.value), *names_in(inputs.value)}:
                return False
        return bool(calls)

    def iterates_parts_of_batch(self, loop: cst.CSTNode) -> bool:
        """A `for` over the parts of the item of a loop around it (`for i in range(len(data))`, `for x in
        data`), where that loop runs a model on its item outside this loop (`logits = model(*data[1:])`):
        its item is a batch, and this loop goes over the parts of that one batch, within its step,
        whatever either is called. Not a loop that differentiates, nor one over the items of a loop whose
        model runs only inside it (`for data in datasets: for i in range(len(data)): model(data[i])`)."""
        if not isinstance(loop, cst.For) or self.has_backward(loop):
            return False
        called = {id(c.func) for c in self.model.tree.descendants(loop.iter, cst.Call)}
        read = {n.value for n in self.model.tree.descendants(loop.iter, cst.Name) if id(n) not in called}
        if type(loop.iter) is cst.Name:
            read = {loop.iter.value}
        if not read:
            return False
        tree = self.model.tree
        for outer in self.model.enclosing_loops(loop):
            if type(outer) is not cst.For:
                continue
            items = set(target_names(outer.target))
            if not read <= items:
                continue
            derived: set[str] = set()
            for assign in tree.descendants(outer.body, cst.Assign):
                if not tree.contains(loop, assign) and self._reads_element(assign.value, items, False, derived):
                    derived.update(n for t in assign.targets for n in target_names(t.target))
            return any(
                not tree.contains(loop, call)
                and any(self._reads_element(a.value, items, False, derived) for a in call.args)
                and (self.provenance.is_module_call(call) or self.model.module_facts.runs_module(call))  # type: ignore[attr-defined]
                for call in tree.descendants(outer.body, cst.Call)
            )
        return False

    def iterates_chunks(self, loop: cst.CSTNode) -> bool:
        """A `for` over the pieces of one tensor (`torch.chunk(x, n)`, `x.split(k)`, zipped or enumerated)."""
        if not isinstance(loop, cst.For):
            return False
        iterable = loop.iter
        parts = [iterable]
        if isinstance(iterable, cst.Call) and code(iterable.func) in ("zip", "enumerate") and iterable.args:
            parts = [a.value for a in iterable.args if a.keyword is None]
        return all(self._splits(p) for p in parts)

    def _splits(self, expr: cst.BaseExpression) -> bool:
        if not isinstance(expr, cst.Call):
            return False
        if (self.model.imports.resolve(expr.func) or "") in SPLITTERS:
            return True
        return method_name(expr) in SPLITTING_METHODS and bool(expr.args) and not isinstance(expr.func.value, cst.SimpleString)

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
                and not self.model.eval_regions.trained_through(scope)  # type: ignore[attr-defined]
            )
        )

    def generates_output(self, store: Store, region: cst.CSTNode) -> bool:
        """Does `region` decode one batch step by step (a counting loop whose model input comes from
        the previous step) into a container that the function then returns (`return torch.cat(feat)`)
        or that the loop around it empties for each batch? What it collects is the generated
        output, bounded by the length asked for."""
        if not isinstance(region, (cst.For, cst.While)) or not self._counts(region) or not self.decodes(region):
            return False
        root = root_name(store.container)
        scope = self.model.scope_of(region)
        tree = self.model.tree
        outer = self.model.enclosing_loops(region)
        if outer and any(tree.contains(outer[0].body, b.node) for b in self.model.bindings(scope, root)):
            return True  # emptied for every batch of the loop around the decoding
        return any(
            ret.value is not None and root in names_in(ret.value) and tree.is_after(ret, region)
            for ret in tree.descendants(scope, cst.Return)
            if self.model.scope_of(ret) is scope
        )

    def decodes(self, loop: Loop) -> bool:
        """Does the model's input in `loop` come from the previous iteration (autoregressive
        decoding: `prev = out[...]`, `cur_len += 1` after the call that reads them)?"""
        tree = self.model.tree
        rebound: dict[str, list[cst.CSTNode]] = {}
        for node_type in (cst.Assign, cst.AugAssign):
            for node in tree.descendants(loop.body, node_type):
                targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
                for target in targets:
                    for name in target_names(target):
                        rebound.setdefault(name, []).append(node)
        for call in tree.descendants(loop.body, cst.Call):
            if not self.provenance.is_module_call(call):
                continue
            position = tree.order[id(call)]
            # the names it reads, and those the loop makes them of before it (`x_cond = x[:, -n:]`)
            read = {n for a in call.args for n in names_in(a.value)}
            todo = list(read)
            while todo:
                for node in rebound.get(todo.pop(), ()):
                    if tree.order[id(node)] < position and isinstance(node, cst.Assign):
                        made_of = set(names_in(node.value)) - read
                        read |= made_of
                        todo += made_of
            # rebound after the call, or by the statement that makes it (`prev = model(prev)`)
            if any(
                tree.order[id(node)] > position or tree.contains(node, call)
                for name in read
                for node in rebound.get(name, ())
            ):
                return True
        return False

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
                if self._varies(anc.test, region, varying):
                    return True
        return False

    def varies(self, test: cst.BaseExpression, region: cst.CSTNode) -> bool:
        """Can the `if` test `test` take different branches on different iterations of `region`?"""
        return self._varies(test, region, self.bound_in(region))

    def _varies(self, test: cst.BaseExpression, region: cst.CSTNode, varying: set[str]) -> bool:
        calls = [c for c in self.model.tree.descendants(test, cst.Call) if method_name(c) not in _INVARIANT_CALLS]
        return bool(set(names_in(test)) & varying or calls or self._reads_attribute_bound_in(test, region))

    def _reads_attribute_bound_in(self, test: cst.BaseExpression, region: cst.CSTNode) -> bool:
        """Does `test` read an attribute that `region` rebinds (`self._n_updates += 1`, then
        `if self._n_updates % self.policy_delay == 0:`)?"""
        tree = self.model.tree
        bound = {
            code(target)
            for node_type in (cst.Assign, cst.AugAssign)
            for node in tree.descendants(region, node_type)
            for target in ([t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target])
            if isinstance(target, cst.Attribute)
        }
        return bool(bound) and any(code(a) in bound for a in tree.descendants(test, cst.Attribute))

    def step_region(self, node: cst.CSTNode) -> cst.CSTNode | None:
        """The innermost step loop around `node`, or its per-step framework method."""
        for loop in self.model.enclosing_loops(node):
            if self.is_step_loop(loop):
                return loop
        scope = self.model.scope_of(node)
        if not isinstance(scope, cst.FunctionDef):
            return None
        key = id(scope)
        if key not in self._step_functions:  # asked for every statement outside a step loop
            self._step_functions[key] = (
                self.per_step_method(scope) or self.called_per_step(scope) or self.is_module_forward(scope)
            )
        return scope if self._step_functions[key] else None

    def in_training_mode(self, node: cst.CSTNode) -> bool:
        """Under `if self.training:` (a running statistic's update, as in BatchNorm), or `if self.train():`,
        which switches training mode on and is true: one of the test's conjuncts says the module trains.
        Or after `if not self.training: return ...` (a guard that leaves the function outside training)."""
        tree = self.model.tree
        inner = node
        for anc in tree.ancestors(node):
            if isinstance(anc, cst.If) and any(_says_training(c) for c in _operands(anc.test, cst.And)):
                return tree.contains(anc.body, node)
            if isinstance(anc, cst.IndentedBlock) and any(_leaves_outside_training(s) for s in _before(anc, inner)):
                return True
            if isinstance(anc, cst.FunctionDef):
                return False
            inner = anc
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

    def accumulates_by_design(self, func: cst.FunctionDef) -> bool:
        """Does the framework call `func` to gather state over the epoch (ignite's `Metric.update`)?"""
        hook = self.model.frameworks.hook(func)
        return hook is not None and hook.accumulates

    def called_per_step(self, func: cst.FunctionDef) -> bool:
        """Is every call site of `func` in this file inside a step loop (skorch's
        `validation_step`, looped over by `run_valid_epoch`), or, with none here, does another file
        of the project call it on every step (`ema.update(model)` in its training loop)?"""
        sites = self.model.call_sites().get(func, ()) or self.model.frameworks.hook_runs(func)
        if not sites:
            name = self.model.exported_name(func)
            return name is not None and self.model.project.called_per_step_elsewhere(name)
        return all(any(self.is_step_loop(loop) for loop in self.model.enclosing_loops(site)) for site in sites)

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
        if not isinstance(loop, cst.For) or self._iterates_a_loader(loop.iter, loop) is False:
            return False  # (a mapping made here: its keys, whatever it is called)
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
            if isinstance(scope, cst.FunctionDef) and (self.eval_step_method(scope) or self._evaluated_per_batch_elsewhere(scope)):
                return scope
            return None
        for index, loop in enumerate(loops):
            if self.is_training_loop(loop):
                return None
            if self._evaluates_batches(loop):
                if self._counts(loop):
                    # `for i in range(len(lengths))` inside a loop over evaluation batches: the samples
                    # (or steps) of one batch; what it collects is the batch's if the batch loop empties it
                    outer = self._batch_loop_around(loops[index + 1 :])
                    if outer is not None:
                        return outer
                return loop
        return None

    def _evaluated_per_batch_elsewhere(self, func: cst.FunctionDef) -> bool:
        """Does only another file of the project call `func`, once per batch with grad off (`evaluator.
        eval_step(batch)` in its loop under `torch.no_grad()`): an evaluation step of that loop?"""
        if self.model.call_sites().get(func) or self.model.frameworks.hook(func) is not None:
            return False
        name = self.model.exported_name(func)
        return name is not None and self.model.project.called_per_eval_batch_elsewhere(name)

    def _evaluates_batches(self, loop: cst.CSTNode) -> bool:
        return self.is_eval_loop(loop) or (
            self.iterates_batches(loop)
            and (
                (self.runs_model(loop) and self.model.grad_state(loop) is Grad.OFF)
                or (not self.trains_each_iteration(loop) and self._infers_through_callees(loop))
            )
        )

    def _infers_through_callees(self, loop: cst.CSTNode) -> bool:
        """Does each iteration run a model only through functions of this file that run it with grad
        off (`ref = self.compute_reference_log_probs(batch)`, whose forward is under `no_grad`), and
        none itself: an inference loop, whatever its names?"""
        model = self.model
        runs = model.model_runs
        inferring = False
        for call in model.tree.descendants(loop.body, cst.Call):
            if self.provenance.is_module_call(call):
                return False
            callees = model.running_callees(call)
            if any(runs.model_run(c) is not None for c in callees):
                return False
            inferring = inferring or any(runs.infers_without_grad(c) for c in callees)
        return inferring

    def _batch_loop_around(self, outer: list[cst.CSTNode]) -> cst.CSTNode | None:
        """The loop over evaluation batches (not a counting loop) among the loops `outer` around a
        loop, innermost first; None where one of them trains first."""
        for loop in outer:
            if self.is_training_loop(loop):
                return None
            if not self._counts(loop) and self._evaluates_batches(loop):
                return loop
        return None

    def runs_model(self, loop: cst.CSTNode) -> bool:
        """Does each iteration call a model/module (an evaluation *batch*)?"""
        provenance = self.provenance
        return any(provenance.is_module_call(c) for c in self.model.tree.descendants(loop.body, cst.Call))

    # -- what outlives an iteration ----------------------------------------------
    def comprehension_store(self, statement: cst.CSTNode) -> tuple[Store, cst.CompFor] | None:
        """A comprehension over batches collected into a name (`preds = [model(x) for x in loader]`,
        `torch.cat([...])`, `{k: model(b) for k, b in batches}`): a loop whose body appends its element
        to the container, which holds every batch's element at once. The store and its loop."""
        if type(statement) is not cst.Assign or len(statement.targets) != 1:
            return None
        key = id(statement)  # (asked of every assignment by each rule about kept values)
        if key not in self._collected:
            self._collected[key] = self._comprehension_store(statement)
        return self._collected[key]

    def _comprehension_store(self, statement: cst.Assign) -> tuple[Store, cst.CompFor] | None:
        if type(statement.targets[0].target) not in (cst.Name, cst.Attribute) or self.model.enclosing_loops(statement):
            return None  # unpacked into names, or the pieces of one step of a loop around it
        scope = self.model.scope_of(statement)
        if type(scope) is cst.FunctionDef and (self.is_module_forward(scope) or self.per_step_method(scope)):
            return None  # one step's pieces, which its backward needs
        value = statement.value
        if type(value) is cst.Call and len(value.args) == 1 and value.args[0].keyword is None:
            resolved = self.model.imports.resolve(value.func) or ""
            if resolved not in CONCATENATIONS and resolved not in ("list", "tuple", "dict"):
                return None
            value = value.args[0].value  # `torch.cat([model(x) for x in loader])`
        elif type(value) is cst.GeneratorExp:
            return None  # consumed as it is read: nothing is held
        if type(value) not in (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp):
            return None
        loop = value.for_in
        iterable = loop.iter
        if type(iterable) is cst.Call and method_name(iterable) in ("items", "keys", "values") and not iterable.args:
            return None  # the entries of one mapping
        text = code(iterable)
        if type(iterable) is cst.Call and code(iterable.func) == "range":
            return None  # `[model(x) for _ in range(n_samples)]`: a count, not the batches of a data set
        if not (_LOADER.search(text) or (_EVAL_LOADER.search(text) and "batch" not in text.lower())):
            return None  # (a bare `data`, or `test_batch`, is as often one batch, or strings, as a data set)
        element = value.value if type(value) is cst.DictComp else value.elt
        return Store(statement, statement.targets[0].target, element, "append"), loop

    def store_of(self, statement: cst.CSTNode) -> Store | None:
        key = id(statement)
        if key not in self._stores:
            self._stores[key] = self._store_of(statement)
        return self._stores[key]

    def _store_of(self, statement: cst.CSTNode) -> Store | None:
        kind = type(statement)  # exact types (LibCST's node classes have no subclasses): isinstance goes through ABCMeta
        if kind is cst.Return:
            kept = self._kept_return(statement)
            if kept is None and type(statement.value) is cst.Call:
                # `return self.evaluate(fvals)`: a callee whose answer is returned keeps its argument too
                return self._kept_by_used_call(statement.value, statement)
            return kept
        if kind is cst.Expr and type(statement.value) is cst.Call:
            call = statement.value
            if type(call.func) is not cst.Attribute:
                return self._kept_by_called_function(call, statement)
            method = call.func.attr.value
            container = call.func.value
            if method in CONTAINER_STORES:
                # a method this file defines (`evaluator.add(out)`), or a class of another file of the
                # project made the receiver (`avg = Averager()`): its summary says what it keeps
                if method in self.model.functions and self._method_of(container, method, call, statement) is not None:
                    return self._kept_by_callee(call, statement)
                made = self.provenance.project_instance(container, statement)
                if made is not None and self.model.project.method(made, method) is not None:
                    return self._kept_by_callee(call, statement)
                arg = call_arg(call, CONTAINER_STORES[method])
                return Store(statement, container, arg.value, "append") if arg else None
            kept = self._kept_by_callee(call, statement)
            if kept is not None:
                return kept
            if method in _IN_PLACE and call.args:
                # `self.running_mean.mul_(m).add_(mean * (1 - m))`: a buffer updated in place
                while type(container) is cst.Call and method_name(container) in _IN_PLACE:
                    container = container.func.value
                if (type(container) is cst.Attribute and container.attr.value in DETACHED_VIEW_ATTRIBUTES) or (
                    type(container) is cst.Call and method_name(container) in DETACHED_VIEW_METHODS
                ):
                    return None  # `self.buf.data.mul_(m).add_(x)`: through a view outside autograd, no graph kept
                if type(container) is cst.Attribute and root_name(container) == "self":
                    return Store(statement, container, call.args[0].value, "in-place")
                if type(container) is cst.Call and root_name(container.func) in self.model.params(self.model.scope_of(statement)):
                    # `stats.device_stat("loss").add_(loss)`: a tensor that an object handed in holds
                    return Store(statement, container, call.args[0].value, "in-place")
                if self.provenance.module_parameter(container, statement):
                    # `ema_p.mul_(d).add_(p, alpha=1 - d)`: a parameter of a module, averaged in place
                    return Store(statement, container, call.args[0].value, "in-place")
            return None
        if kind is cst.AugAssign and type(statement.operator) in _ACCUMULATING_OPS:
            if type(statement.target) in (cst.Name, cst.Attribute):
                # `outs += [out]` grows a list like append; `total += loss` accumulates
                kind = "append" if type(statement.value) in (cst.List, cst.Tuple) else "accumulate"
                return Store(statement, statement.target, statement.value, kind)
            if type(statement.target) is cst.Subscript:
                # `total_loss[name] += loss`: a running sum kept in an entry of the container
                return Store(statement, statement.target.value, statement.value, "accumulate")
            return None
        if kind is cst.Assign and len(statement.targets) == 1:
            target = statement.targets[0].target
            if type(target) is cst.Subscript:
                other = self.accumulated_operand(target, statement.value)
                if other is not None:  # `self.running_covar[:, 0] = m * v + (1 - m) * self.running_covar[:, 0]`
                    return Store(statement, target.value, other, "accumulate")
                return Store(statement, target.value, statement.value, "subscript")
            if _pairs_subscripts(target, statement.value):
                # `losses[i], costs[i] = loss, cost`: each value is kept in its container
                return Store(statement, target.elements[0].value.value, statement.value, "subscript")
            if type(target) in (cst.Tuple, cst.List) and type(statement.value) is cst.Call:
                # `losses[i], costs[i] = step()`: the entry that receives an element with history
                for index, element in enumerate(target.elements):
                    if type(element) is cst.StarredElement:
                        break
                    if type(element.value) is cst.Subscript and self.provenance.carries_history_element(
                        statement.value, index, statement
                    ):
                        return Store(statement, element.value.value, statement.value, "subscript")
            if type(target) in (cst.Name, cst.Attribute):
                value = _accumulating_branch(
                    statement.value, lambda v: self.accumulated_operand(target, v) is not None
                )
                other = self.accumulated_operand(target, value)
                if other is not None:
                    kind = "concat" if type(value) is cst.Call else "accumulate"
                    return Store(statement, target, other, kind)
            if type(target) is cst.Name and self._seeds_running_value(statement, target.value):
                # `else: ema = loss` beside `if ema: ema = 0.9 * ema + 0.1 * loss`: the first value
                # of the running one, carried into every later iteration
                return Store(statement, target, statement.value, "accumulate")
        if kind in (cst.If, cst.While):
            # `if stopping_criterion and stopping_criterion(fval):`: a callee run for its answer keeps its argument too
            return next(filter(None, (self._kept_by_used_call(c, statement) for c in _tested_calls(statement.test))), None)
        return None

    def _kept_by_called_function(self, call: cst.Call, statement: cst.CSTNode) -> Store | None:
        """`metric(out, y)`, `record(history, loss)`: a call of a callable (no method of a receiver)
        that keeps an argument, by the callee's definition in this file or its facts."""
        return self._kept_by_called_instance(call, statement) or self._kept_in_argument(
            call, statement, self.model.named_callees(call)
        )

    def _kept_by_used_call(self, call: cst.Call, statement: cst.CSTNode) -> Store | None:
        """The store of a call whose result the statement tests (`if criterion(loss):`), where the
        callee keeps an argument; a container's own store method (`d.setdefault(k, v)`) is no callee's."""
        if not call.args:
            return None
        if type(call.func) is not cst.Attribute:
            return self._kept_by_called_function(call, statement)
        if call.func.attr.value in CONTAINER_STORES:
            return None
        return self._kept_by_callee(call, statement)

    def _seeds_running_value(self, statement: cst.Assign, name: str) -> bool:
        """Is `name = value` one branch of a conditional update whose other branch accumulates
        into `name` (`t = alpha * v + (1 - alpha) * t`) in the same loop?"""
        loops = self.model.enclosing_loops(statement)
        if not loops:
            return False
        for binding in self.model.bindings(self.model.scope_of(statement), name):
            other = binding.node
            if other is statement or not isinstance(other, cst.Assign) or not self.model.tree.contains(loops[0], other):
                continue
            if self.accumulated_operand(other.targets[0].target, other.value) is not None and exclusive_branches(
                self.model, statement, other
            ):
                return True
        return False

    def _kept_by_callee(self, call: cst.Call, statement: cst.CSTNode) -> Store | None:
        """`meter.update(loss)`, `self.record(metrics)`: a call whose callee keeps its argument
        beyond the call, as the callee's summary says; for a callee not defined in this file, a
        meter's `update` (named like one) is assumed to keep it, and the store says so."""
        receiver = call.func.value
        method = call.func.attr.value
        if not call.args:
            return None
        # a method of this file only when the file defines one of that name (most calls are library calls)
        callee = self._method_of(receiver, method, call, statement) if method in self.model.functions else None
        if callee is not None:
            return self._kept_by_method(call, statement, receiver, callee)
        made = self.provenance.project_instance(receiver, statement)
        facts = self.model.project.method(made, method) if made is not None else None
        if facts is not None:  # a method of a class of another file of the project: its facts say
            return self._kept_by_project_method(call, statement, receiver, code(made.func), method, facts)
        handed = self._handed_instance_method(receiver, method, statement) if made is None else None
        if handed is not None:  # an object that the callers of other files hand: its class's facts say
            return self._kept_by_project_method(call, statement, receiver, handed["class"], method, handed)
        library = self.provenance.constructed_class(receiver, statement)
        if f"{library}.{method}" in KEEPS_ARGUMENT:  # a library class that keeps it, by the table
            arg = call_arg(call, KEEPS_ARGUMENT[f"{library}.{method}"])
            return Store(statement, receiver, arg.value, "update", f"`{library}.{method}` keeps it") if arg else None
        if method != "update" or not call.args or not self._is_meter(receiver, statement):
            return None
        return Store(
            statement,
            receiver,
            call.args[0].value,
            "update",
            f"assumed: `{code(receiver)}` is a meter whose `update` keeps its argument (its class is not defined "
            "in this file)",
            assumed=True,
        )

    def _kept_by_method(
        self, call: cst.Call, statement: cst.CSTNode, receiver: cst.BaseExpression, callee: cst.FunctionDef
    ) -> Store | None:
        """The store of `receiver.method(...)` (or of `receiver(...)`) that runs `callee`, a method of this
        file: the argument it keeps, by its summary, the one with history first."""
        kept = self.model.summaries.kept_arguments(call, callee)
        if not kept:
            # the callee detaches, converts or drops what it is given, or keeps it in a container
            # its caller passes in (`logger.log(history, loss)`)
            return self._kept_in_argument(call, statement, [callee])
        carrying = [k for k in kept if self.provenance.carries_history(k[0], statement)]
        arg, where, keep = (carrying or kept)[0]
        container = cst.parse_expression(where) if root_name(receiver) == "self" else receiver
        via = f"`{self.model.summaries.name(callee)}` keeps it in `{where}`"
        return Store(statement, container, arg, "update", via, keep)

    def _kept_by_called_instance(self, call: cst.Call, statement: cst.CSTNode) -> Store | None:
        """`metric(out, y)` where `metric` is made from a class of this file: calling the object runs
        its `__call__` (its own or one it inherits), and what that keeps, by its summary, the object
        keeps; or made from a class of another file of the project: its `__call__`, else its `forward`
        (as `nn.Module.__call__` does), and what that method keeps of its arguments, by its facts."""
        if not call.args:
            return None
        if type(call.func) is cst.Name and "__call__" in self.model.functions:
            callee = self._method_of(call.func, "__call__", call, statement)
            if callee is not None:
                return self._kept_by_method(call, statement, call.func, callee)
        made = self.provenance.project_instance(call.func, statement)
        if made is None:
            for method in ("__call__", "forward"):
                facts = self._handed_instance_method(call.func, method, statement)
                if facts is not None:
                    return self._kept_by_project_method(call, statement, call.func, facts["class"], method, facts)
            return None
        project = self.model.project
        for method in ("__call__", "forward"):
            facts = project.method(made, method)
            if facts is not None:
                return self._kept_by_project_method(call, statement, call.func, code(made.func), method, facts)
        return None

    def _handed_instance_method(self, receiver: cst.BaseExpression, method: str, at: cst.CSTNode) -> dict | None:
        """`stopping_criterion(fval)` where `stopping_criterion` is a parameter of the function around `at`,
        never rebound there, that calls of the function in other files of the project hand an object of a
        project class: the facts of that class's `method` where it keeps an argument (the project index
        reads the callers), with the class as written there (`class`)."""
        func = self.model.scope_of(at)
        if type(receiver) is not cst.Name or type(func) is not cst.FunctionDef or self.model.bindings(func, receiver.value):
            return None
        params = [p.name.value for p in (*func.params.posonly_params, *func.params.params, *func.params.kwonly_params)]
        params = [p for p in params if p not in ("self", "cls")]
        name = self.model.exported_name(func)
        if receiver.value not in params or name is None:
            return None
        call = self.model.tree.parent_of(receiver)
        call = self.model.tree.parent_of(call) if type(call) is cst.Attribute else call
        if type(call) is not cst.Call or not any(self.provenance.carries_history(a.value, at) for a in call.args):
            return None  # (asked only where the answer may change a finding: the project then hands the facts)
        return self.model.project.handed_instance_method(name, receiver.value, params.index(receiver.value), method)

    def _kept_by_project_method(
        self, call: cst.Call, statement: cst.CSTNode, receiver: cst.BaseExpression, cls: str, method: str, facts: dict
    ) -> Store | None:
        """`meter.update(loss)` where `meter` is made from a class of another file of the project:
        the arguments its method keeps (on `self`), as its facts say, the one with history first
        (`meter.update(loss, batch_size)` keeps both in `self.sum`); None when it keeps none."""
        project = self.model.project
        keeps = facts.get("keeps") or {}
        kept = [(arg, param, where) for param, where in keeps.items() if (arg := project.argument(facts, call, param)) is not None]
        rest = facts.get("keyword_rest")
        if rest in keeps:  # `update(self, **kwargs)` keeps the entries of its `**kwargs`: the call's other keywords
            kept += [(arg, rest, keeps[rest]) for arg in keyword_rest(call, facts.get("params") or [])]
        if not kept:
            return None
        carrying = [k for k in kept if self.provenance.carries_history(k[0], statement)]
        arg, param, where = (carrying or kept)[0]
        via = f"`{cls}.{method}` ({facts.get('file', 'another file')}) keeps it in `{where}`"
        return Store(statement, receiver, arg, "update", via, grows=param in (facts.get("grows") or ()))

    def _kept_in_argument(self, call: cst.Call, statement: cst.CSTNode, callees: list[cst.FunctionDef]) -> Store | None:
        """`record(history, loss)` where `record` of this file appends its `value` to its
        `history`: the caller's `history` keeps `loss` (a store into the argument)."""
        summaries = self.model.summaries
        for callee in callees[:1] if len(callees) == 1 else ():
            for param, (keep, into) in sorted((summaries.keeps_in_arguments(callee) or {}).items()):
                arg = summaries.argument_for(call, callee, param)
                container = summaries.argument_for(call, callee, into)
                if arg is None or container is None or root_name(container) is None:
                    continue
                via = f"`{summaries.name(callee)}` stores it in its `{into}`, which is `{code(container)}` here"
                return Store(statement, container, arg, "append", via, keep)
        return None

    def method_called(self, call: cst.Call) -> cst.FunctionDef | None:
        """The method of a class of this file that `receiver.method(...)` runs, where the file shows it."""
        func = call.func
        if type(func) is not cst.Attribute or func.attr.value not in self.model.functions:
            return None
        made = set()
        for value in self.provenance.instance_values(func.value, call):
            while type(value) is cst.Call and method_name(value) in MODULE_SELF_RETURNING:
                value = value.func.value  # `VAE().to(device)`
            if type(value) is cst.Call and type(value.func) is cst.Name and value.func.value in self._classes:
                made.add(value.func.value)
        if len(made) != 1:
            return self._method_of(func.value, func.attr.value, call, call)
        cls = self._classes[made.pop()]
        return next(
            (s for s in cls.body.body if type(s) is cst.FunctionDef and s.name.value == func.attr.value), None
        )

    def _method_of(
        self, receiver: cst.BaseExpression, method: str, call: cst.Call, at: cst.CSTNode
    ) -> cst.FunctionDef | None:
        """The method of this file that `receiver.method(...)` runs: `self.method` of the
        enclosing class, or `method` of a class of this file that `receiver` is an instance of
        (defined there or inherited from a base of this file)."""
        if isinstance(receiver, cst.Name) and receiver.value == "self":
            callees = self.model.named_callees(call)
            return callees[0] if len(callees) == 1 else None
        cls = self._instance_class(receiver, at)
        return self.model.resolved_methods(cls).get(method) if cls is not None else None

    def _instance_class(self, receiver: cst.BaseExpression, at: cst.CSTNode) -> cst.ClassDef | None:
        """The class of this file that made `receiver` (`meter = Meter()`, `self.meter = Meter()`,
        `meters[k]` of `{k: Meter() for k in keys}`)."""
        if isinstance(receiver, cst.Name):
            values = self._made_by(receiver, at)
        else:  # `self.meter`, `meters[name]` of a container of meters
            values = self.provenance.held_values(receiver, at)
        classes = self._classes
        made = {
            classes[v.func.value]
            for v in values
            if isinstance(v, cst.Call) and isinstance(v.func, cst.Name) and v.func.value in classes
        }
        return made.pop() if len(made) == 1 else None

    @cached_property
    def _classes(self) -> dict[str, cst.ClassDef]:
        """The file's classes by name (the last of a name wins, as a module's namespace does)."""
        return {c.name.value: c for c in self.model.tree.by_type.get(cst.ClassDef, ())}

    def meter_class(self, store: Store) -> str | None:
        """For a store assumed of a meter not defined here: the class that made it, as written
        (`AverageMeter` for `meter = AverageMeter()`), for the project index to look up."""
        if not isinstance(store.container, cst.Name):
            return None
        for made in self._made_by(store.container, store.statement):
            return code(made.func)
        return None

    def _made_by(self, name: cst.Name, at: cst.CSTNode) -> list[cst.Call]:
        """The calls whose results `name` is bound to (`m = Meter()`, `m, k = Meter(), Keeper()`)."""
        found = []
        model = self.model
        for binding in model.bindings(model.scope_of(at), name.value) + model.bindings(model.module, name.value):
            value, element = unpacked(binding)
            if isinstance(value, cst.Call) and element is None:
                found.append(value)
        return found

    def _is_meter(self, container: cst.BaseExpression, at: cst.CSTNode) -> bool:
        """`meter.update(v)` on an object of a class not in this file: named like a meter, or
        made by a `...Meter(...)` class; not a torchmetrics metric, whose `update` runs
        without grad."""
        if isinstance(container, cst.Name):
            for call in self._made_by(container, at):
                made = self.model.imports.resolve(call.func) or ""
                if made.startswith(SANITIZING_UPDATE_CLASSES):
                    return False
                if _METER.search(code(call.func)):
                    return True
        return bool(_METER.search(code(container)))

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
                    if statement is not store.statement and _resets(statement, container) and not self._while_unset(statement, container):
                        return True
        return False

    def _while_unset(self, statement: cst.CSTNode, container: str) -> bool:
        """Does `statement` run only while `container` is None (`if self.total is None: self.total = value`,
        the `else` of `if self.total is not None:`)? It sets the first value, on the first call: no reset."""
        inner: cst.CSTNode = statement
        for anc in self.model.tree.ancestors(statement):
            if isinstance(anc, cst.FunctionDef):
                return False
            test = anc.test if type(anc) is cst.If else None
            if type(test) is cst.Comparison and len(test.comparisons) == 1 and code(test.left) == container:
                operator, comparator = type(test.comparisons[0].operator), test.comparisons[0].comparator
                if dotted(comparator) == "None" and (operator, inner) in ((cst.Is, anc.body), (cst.IsNot, anc.orelse)):
                    return True
            inner = anc
        return False

    def accumulated_operand(self, target: cst.BaseExpression, value: cst.BaseExpression) -> cst.BaseExpression | None:
        """For `t = t + v`, `t = 0.9 * t + 0.1 * v` or `t = torch.cat([t, v])`: the `v`; also for a window
        of the last values, `t = torch.cat([t[-n:], v])` (a slice of `t` is a view with `t`'s history:
        each concatenation's graph still hangs on the last)."""
        if type(value) is cst.BinaryOperation and type(value.operator) in (cst.Add, cst.Subtract):
            in_left, in_right = _mentions(value.left, target), _mentions(value.right, target)
            if in_left and not in_right:
                return value.right
            if in_right and not in_left:
                return value.left
        if type(value) is cst.Call and (self.model.imports.resolve(value.func) or "") in CONCATENATIONS:
            seq = value.args[0].value if value.args else None
            if type(seq) in (cst.List, cst.Tuple) and len(seq.elements) == 2:
                first, second = (e.value for e in seq.elements)
                if _same_or_window(first, target):
                    return second
                if _same_or_window(second, target):
                    return first
        return None

    def _escapes_to_self(self, name: str, func: cst.FunctionDef) -> bool:
        """Is the local `name` itself stored on `self` in `func` (`self.chunks = enc`), under an
        attribute that no other method of the class reads into what it returns? OpenPCDet's heads
        keep their predictions in `self.forward_ret_dict[...]` for `get_loss` to compute the loss
        from: the next step's forward replaces them, and the loss backwards their graph."""
        for assign in self.model.tree.descendants(func.body, cst.Assign):
            if isinstance(assign.value, cst.Name) and assign.value.value == name:
                for t in assign.targets:
                    if root_name(t.target) == "self" and _self_attribute(t.target) not in self.read_into_returns(func):
                        return True
        return False

    def read_into_returns(self, method: cst.FunctionDef) -> set[str]:
        """The attributes of `self` that the other methods of `method`'s class read and return a
        value from (`get_loss` reading `self.forward_ret_dict`), in this file, or in
        a base class of the project's other files (its summary says so)."""
        model = self.model
        cls = model.enclosing_class(method)
        if cls is None:
            return set()
        found = {attr for other, attr in self.class_reads_into_returns(cls) if other is not method}
        for base in cls.bases:
            if base.keyword is None and not (type(base.value) is cst.Name and base.value.value in model.calls.classes):
                found.update((model.project.klass(base.value) or {}).get("reads_into_returns", ()))
        return found

    def class_reads_into_returns(self, cls: cst.ClassDef) -> list[tuple[cst.FunctionDef, str]]:
        """(method, attribute) for each method of `cls` that reads `self.<attribute>` and returns a
        value (a loss computed from it: what it returns is its caller's to backward)."""
        model = self.model
        found = []
        for stmt in cls.body.body:
            if type(stmt) is not cst.FunctionDef:
                continue
            if not any(r.value is not None and model.scope_of(r) is stmt for r in model.tree.descendants(stmt.body, cst.Return)):
                continue
            for attr in model.tree.descendants(stmt.body, cst.Attribute):
                if type(attr.value) is cst.Name and attr.value.value == "self":
                    parent = model.tree.parent_of(attr)
                    if not (type(parent) is cst.Call and parent.func is attr):  # a call of a method or a submodule
                        found.append((stmt, attr.attr.value))
        return found

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

    def graph_frame_store(self, store: Store) -> bool:
        """`g.ndata["h"] = h`: a feature written into a graph's frames (DGL), which message passing reads."""
        container = store.container
        return store.kind == "subscript" and type(container) is cst.Attribute and container.attr.value in GRAPH_FEATURE_FRAMES

    def steps_with_lasting_graph(self, forward: cst.FunctionDef, graph: str) -> bool:
        """Does a loop of this file that trains each iteration hand a model, where `forward` takes
        its parameter `graph`, a value bound outside the loop: the same graph every step (full-graph
        training), which keeps what each `forward` writes into it? A graph built per batch (the
        loop's own target, or made in its body) dies with the step."""
        params = [p.name.value for p in (*forward.params.posonly_params, *forward.params.params)]
        if graph not in params:
            return True  # a graph the module holds (`self.g`), or a global one: it lives on
        position = params.index(graph) - (1 if params and params[0] == "self" else 0)
        model = self.model
        for loop in (*model.tree.by_type.get(cst.For, ()), *model.tree.by_type.get(cst.While, ())):
            if not self.trains_each_iteration(loop):
                continue
            bound = self.bound_in(loop)
            for call in model.tree.descendants(loop, cst.Call):
                arg = call_arg(call, position, graph)
                if arg is None or not self.provenance.is_module_call(call):
                    continue
                root = root_name(arg.value)
                if type(arg.value) in (cst.Name, cst.Attribute) and root is not None and root not in bound:
                    return True
        return False

    def _in_local_scope(self, store: Store) -> bool:
        """Is the store inside `with g.local_scope():` of the graph it writes into?"""
        graph = code(store.container.value)  # type: ignore[attr-defined]
        for anc in self.model.tree.ancestors(store.statement):
            if type(anc) is cst.With:
                for item in anc.items:
                    call = item.item
                    if type(call) is cst.Call and method_name(call) in GRAPH_LOCAL_SCOPES and code(call.func.value) == graph:
                        return True
        return False

    def _kept_return(self, statement: cst.Return) -> Store | None:
        """`return value` from a step whose every return the framework keeps (`predict_step` under
        `Trainer.predict`): a store into the framework's list, less the entries it detaches."""
        func = self.model.scope_of(statement)
        if statement.value is None or type(func) is not cst.FunctionDef:
            return None
        kept = self.model.frameworks.kept_return(func)
        if kept is None:
            return None
        value = statement.value
        if kept.element is not None:  # `return loss, sample_size, logging_output`: it keeps the last
            if type(value) is not cst.Tuple or len(value.elements) <= kept.element:
                return None
            value = value.elements[kept.element].value
        if kept.detached_keys:
            if type(value) is not cst.Dict:
                return None  # a bare tensor is the loss itself, detached by the framework
            elements = [
                e for e in value.elements
                if not (type(e) is cst.DictElement and type(e.key) is cst.SimpleString and e.key.evaluated_value in kept.detached_keys)
            ]
            if not elements:
                return None
            value = value.with_changes(elements=elements)
        return Store(statement, cst.Name("outputs"), value, "returned", via=kept.keeper)

    def outlives(self, store: Store, region: cst.CSTNode) -> bool:
        """Does the container of `store` survive from one iteration of `region` to the next?"""
        if store.kind == "returned":
            return True  # the framework keeps it until the epoch (or the run) ends
        if self.graph_frame_store(store) and self._in_local_scope(store):
            return False  # DGL's `with g.local_scope():` drops what is written in it
        scope = self.model.scope_of(store.statement)
        if store.kind == "in-place" and type(store.container) is cst.Call:
            # a tensor that an object handed in holds (`stats.device_stat(k).add_(loss)`)
            return root_name(store.container.func) in self.model.params(scope)
        if store.kind == "in-place" and self.provenance.module_parameter(store.container, store.statement):
            return True  # a module's parameter lives as long as the module
        root = root_name(store.container)
        if root is None:
            return False
        if self._item_of_held_list(root, region):
            return True  # `for data in cached: data[i] = x.cuda()`: a store into an element of a list that stays
        if isinstance(region, cst.FunctionDef) and self._emptied_by_every_run(store, region):
            return False  # `collected.clear()` in each loop that runs the module a forward hook is on
        if root == "self":
            return not self._reset_per_call(store, region)
        if isinstance(region, cst.FunctionDef):
            # a local of a per-step function dies with the step; a container reached through a
            # context object the caller passes in (`ctx.outputs`, `kwargs["cache"]`) does not
            if self.model.bindings(self.model.module, root) and not self.model.bindings(scope, root):
                return root not in self.model.params(scope)  # a module-level list: it lives as long as the program
            if isinstance(store.container, cst.Name) and self._escapes_to_self(root, region):
                return True  # `self.chunks = enc`: the local list is kept on the object
            return (
                self.is_module_forward(region)
                and root in self.model.params(scope)
                and not isinstance(store.container, cst.Name)
                and not self._returned(root, region)
            )
        tree = self.model.tree
        for binding in self.model.bindings(scope, root):
            if binding.node is store.statement:
                continue
            if tree.contains(region, binding.node):
                if isinstance(binding.node, (cst.Assign, cst.AugAssign)) and self.store_of(binding.node) is not None:
                    continue  # another accumulation into the same container
                if exclusive_branches(self.model, binding.node, store.statement):
                    continue  # bound only on the iterations that do not store: the others carry it on
                return False
        bound_before = any(tree.order[id(b.node)] < tree.order[id(region)] for b in self.model.bindings(scope, root))
        return bound_before or root in self.model.params(scope) or bool(self.model.bindings(self.model.module, root))


    def _item_of_held_list(self, root: str, region: cst.CSTNode) -> bool:
        """Is `root` the item of the loop `region` over a list the function built before it (`cached =
        [list(b) for b in loader]`, then `for data in cached`)? What is stored into the item is stored
        into that list's element, which outlives the iteration; a loader's batch is made anew for each."""
        if type(region) is not cst.For or root not in target_names(region.target):
            return False
        iterable = region.iter
        if type(iterable) is cst.Call and code(iterable.func) == "enumerate" and iterable.args:
            iterable = iterable.args[0].value
        if type(iterable) is not cst.Name:
            return False
        bindings = self.provenance.reaching_bindings(self.model.scope_of(region), iterable.value, region)
        return bool(bindings) and all(
            type(b.value) in (cst.List, cst.ListComp) or (type(b.value) is cst.Call and code(b.value.func) == "list")
            for b in bindings
        )

    def entry_for_returning_method(self, store: Store, region: cst.CSTNode) -> bool:
        """`self.forward_ret_dict["cls_preds"] = cls_preds` in a module's `forward`: an entry under a fixed
        key, replaced by every forward, of an attribute that another method of the class (or of its base in
        another file) reads into what it returns (`get_loss`): it holds one step's predictions, for the
        loss that method computes from them."""
        statement = store.statement
        if store.kind != "subscript" or not isinstance(statement, cst.Assign):
            return False
        if not (isinstance(region, cst.FunctionDef) and self.is_module_forward(region)):
            return False
        targets = [t.target for t in statement.targets]
        fixed = all(
            type(t) is cst.Subscript
            and len(t.slice) == 1
            and type(t.slice[0].slice) is cst.Index
            and type(t.slice[0].slice.value) is cst.SimpleString
            for t in targets
        )
        attr = _self_attribute(targets[0])
        return fixed and attr is not None and attr in self.read_into_returns(region)

    def _emptied_by_every_run(self, store: Store, hook: cst.FunctionDef) -> bool:
        """Is the container of `store`, in the forward hook `hook`, emptied in the loop around every
        run of the module the hook is on (`collected.clear()` after each step's backward)?"""
        runs = self.model.frameworks.hook_runs(hook)
        container = code(store.container)
        tree = self.model.tree
        for run in runs:
            loops = self.model.enclosing_loops(run)
            if not loops:
                return False
            statements = [s for kind in (cst.Assign, cst.Expr, cst.Del) for s in tree.descendants(loops[0].body, kind)]
            if not any(_resets(s, container) for s in statements):
                return False
        return bool(runs)

    def _returned(self, name: str, func: cst.FunctionDef) -> bool:
        """Does `func` hand `name` back to its caller (`return out, state`)? What is written into it
        is then the caller's to keep or drop, like the rest of what `func` returns."""
        for ret in self.model.tree.descendants(func.body, cst.Return):
            if ret.value is not None and self.model.scope_of(ret) is func:
                if any(isinstance(p, cst.Name) and p.value == name for p in literal_parts(ret.value)):
                    return True
        return False


def _self_attribute(target: cst.BaseExpression) -> str | None:
    """`self.forward_ret_dict["pred"]` -> "forward_ret_dict": the attribute of `self` written."""
    while type(target) is cst.Subscript:
        target = target.value
    if type(target) is cst.Attribute and type(target.value) is cst.Name and target.value.value == "self":
        return target.attr.value
    return None


def exclusive_branches(model: "FileContext", a: cst.CSTNode, b: cst.CSTNode) -> bool:
    """Do `a` and `b` run in different branches of one `if` (never both in one pass)?"""
    for anc in model.tree.ancestors(a):
        if isinstance(anc, cst.If) and model.tree.contains(anc, b):
            in_body = model.tree.contains(anc.body, a), model.tree.contains(anc.body, b)
            return in_body[0] != in_body[1]
    return False


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
        # `self.cache_k, self.cache_v = None, None` resets each
        return any(code(t) == container for target in statement.targets for t in _target_parts(target.target))
    if isinstance(statement, cst.Expr) and isinstance(statement.value, cst.Call):
        call = statement.value
        return method_name(call) == "clear" and code(call.func.value) == container
    if isinstance(statement, cst.Del):
        return container in code(statement.target)
    return False


def _target_parts(target: cst.BaseExpression) -> list[cst.BaseExpression]:
    """The single targets of a (possibly tuple) assignment target."""
    if isinstance(target, (cst.Tuple, cst.List)):
        return [part for e in target.elements for part in _target_parts(e.value)]
    return [target]


def _pairs_subscripts(target: cst.BaseExpression, value: cst.BaseExpression) -> bool:
    """`a[i], b[i] = x, y`: a tuple of subscripts assigned a tuple of as many values."""
    return (
        type(target) in (cst.Tuple, cst.List)
        and type(value) in (cst.Tuple, cst.List)
        and len(target.elements) == len(value.elements) > 1
        and all(type(e.value) is cst.Subscript and type(e) is not cst.StarredElement for e in target.elements)
        and not any(type(e) is cst.StarredElement for e in value.elements)
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


def _accumulating_branch(
    value: cst.BaseExpression, accumulates: Callable[[cst.BaseExpression], bool]
) -> cst.BaseExpression:
    """The branch of a conditional value that accumulates (`preds if acc is None else torch.cat([acc,
    preds])`: the concatenation, the first batch's seed being the other), or the value itself."""
    if type(value) is cst.IfExp:
        for branch in (value.body, value.orelse):
            if accumulates(branch):
                return branch
    return value


def _keeps_graph(call: cst.Call) -> bool:
    """Does the differentiation `call` keep the graph of what it computes (`create_graph=True`)?"""
    return any(a.keyword is not None and a.keyword.value == "create_graph" and code(a.value) == "True" for a in call.args)
