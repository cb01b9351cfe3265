"""Framework entry points: the methods a training framework calls once per batch.

A store on `self` from such a method is kept across iterations exactly as one
from a loop body, and the method runs under whatever grad mode the framework
sets around it. Which framework a class belongs to is decided from its base
classes and the file's imports, never from a method name alone: a class with
a `validation_step` that is not a LightningModule is not run under no_grad.
What each framework calls, under which grad mode, and what it keeps of the
results is data (`analysis.library`, with the sources it was read from).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cache, cached_property
from typing import TYPE_CHECKING, Callable

import libcst as cst

from memlint.analysis.syntax.expressions import callee_name, code
from memlint.analysis.syntax.imports import dotted
from memlint.analysis.library import (
    FORWARD_HOOK_ARGUMENTS, FAIRSEQ_CRITERION_HOOKS, FAIRSEQ_CRITERION_KEPT_RETURNS, FAIRSEQ_HOOKS, HF_CALLBACK_HOOKS, HF_TRAINER_HOOKS,
    IGNITE_METRIC_HOOKS, IGNITE_METRIC_PACKAGES, IGNITE_PROCESS_FUNCTION, INFERENCE_PIPELINE_PACKAGES, LIGHTNING_EVAL_PREFIXES, LIGHTNING_HOOKS, LIGHTNING_KEPT_RETURNS, FrameworkHook, KeptReturn,
)
from memlint.analysis.regions.grad import Grad

if TYPE_CHECKING:
    from memlint.analysis.flow.project_facts import ProjectFacts
    from memlint.analysis.syntax.imports import Imports
    from memlint.analysis.syntax.scopes import Scopes

_LIGHTNING_PACKAGES = ("lightning.", "pytorch_lightning.", "lightning_fabric.")
_LIGHTNING_EVAL_HOOKS = {name for name, hook in LIGHTNING_HOOKS.items() if hook.evaluation}
# Per-batch method names shared by several frameworks (and by home-grown
# trainers such as skorch's): a method of this name runs once per batch
# whichever framework calls it; the grad mode needs the framework.
PER_STEP_NAMES = set(LIGHTNING_HOOKS) | set(HF_TRAINER_HOOKS)
TRAIN_STEP_NAMES = {name for name, hook in LIGHTNING_HOOKS.items() if not hook.evaluation} | {"compute_loss"}
_GRADS = {"on": Grad.ON, "off": Grad.OFF, "maybe": Grad.MAYBE}
_EVAL_FUNCTION = re.compile(
    r"^_*(validate|validation|valid|evaluate|evaluation|eval|test|testing|predict|prediction|"
    r"inference|infer|run_eval|run_validation|run_test)(_|$)"
    r"|_(validate|validation|evaluate|evaluation|eval|predict|prediction|inference)$",
    re.IGNORECASE,
)
# Packages whose classes are surely not Lightning's (a base from anywhere else
# may be a LightningModule subclass defined in another module of the project).
_NOT_LIGHTNING = (
    "torch.", "transformers.", "skorch.", "ignite.", "accelerate.", "sklearn.", "object", "abc.", "fairseq.",
)


@cache  # (asked of the same few names again and again: the names of a file's functions)
def named_for_evaluation(name: str) -> bool:
    """Is a function or method of this name evaluation code by its name (`validate`, `eval_step`)?"""
    return bool(_EVAL_FUNCTION.search(name))


@dataclass(frozen=True)
class Hook:
    """A method the framework calls once per batch."""

    framework: str  # in words, for messages: "Lightning", "the Hugging Face Trainer", ...
    grad: Grad
    evaluation: bool  # an evaluation or prediction step (its outputs are evaluation outputs)
    per_step: bool = True  # False: once per epoch or stage (`on_validation_epoch_end`)
    history_params: tuple[str, ...] = ()  # parameters the framework hands values that may carry history
    history_element: int | None = None  # of such a tuple, the element that may
    accumulates: bool = False  # it gathers state over the epoch by design (a metric's `update`)
    tensors: bool = False  # what it hands those parameters is tensors, however the hook uses them


def _from_table(framework: str, entry: FrameworkHook) -> Hook:
    return Hook(
        framework, _GRADS[entry.grad], entry.evaluation, entry.per_step, entry.history_params,
        entry.history_element, entry.accumulates,
    )


# Does an expression read one of the names with its autograd history (not through `.shape`, `.detach()`)?
HistoryQuestion = Callable[[cst.BaseExpression, set[str]], bool]


def _reads_nothing(expr: cst.BaseExpression, names: set[str]) -> bool:
    return False


class Frameworks:
    def __init__(self, scopes: "Scopes", imports: "Imports", project: "ProjectFacts") -> None:
        self.scopes = scopes
        self.imports = imports
        self.project = project
        # the value-flow layer's answer (`Provenance.reads_with_history`), built on this one and handed
        # down once it exists (`answer_history_with`); until then no hook hands a delegate history
        self._reads_with_history: HistoryQuestion | None = None
        self._hooks: dict[int, Hook | None] = {}  # id(function) -> `hook`: asked for every grad-mode question
        self._frameworks: dict[int, str | None] = {}  # id(class) -> `framework_of`, asked for each of its methods
        self._delegated: dict[int, dict[str, tuple[Hook, tuple[int, ...], int | None]]] = {}  # id(class) -> `delegated`
        self._rebound: dict[int, dict[str, list[str]]] = {}  # id(class) -> `_rebound_names`

    def answer_history_with(self, reads_with_history: HistoryQuestion) -> None:
        """Which values carry history is the value-flow layer's question, above this one: the
        file's model hands its answer down here (the delegates of per-step hooks need it)."""
        self._reads_with_history = reads_with_history
        self._delegated.clear()  # (any answered without it)
        self._hooks.clear()

    @cached_property
    def _classes(self) -> dict[str, cst.ClassDef]:
        return {c.name.value: c for c in self.scopes.tree.by_type.get(cst.ClassDef, ())}

    def _bases(self, cls: cst.ClassDef, seen: frozenset = frozenset()) -> set[str]:
        """Qualified names of the classes `cls` derives from, through classes of this file."""
        found: set[str] = set()
        for base in cls.bases:
            if base.keyword is not None:
                continue
            name = self.imports.resolve(base.value) or ""
            local = self._classes.get(name)
            if local is not None and name not in seen:
                found |= self._bases(local, seen | {name})
            elif name:
                found.add(name)
        return found or {"object"}

    def framework_of(self, cls: cst.ClassDef) -> str | None:
        """"lightning", "lightning-callback", "hf-trainer", "hf-callback", "skorch", "fairseq",
        "fairseq-criterion", "ignite-metric", "inference-pipeline", "other" (surely none of these), or None (a base defined elsewhere in the project)."""
        key = id(cls)
        if key not in self._frameworks:
            self._frameworks[key] = self._framework_of(cls)
        return self._frameworks[key]

    def _framework_of(self, cls: cst.ClassDef) -> str | None:
        if any((self.project.klass(b.value) or {}).get("kind") == "lightning" for b in cls.bases if b.keyword is None):
            return "lightning"  # a LightningModule of another file of the project
        bases = self._bases(cls)
        for base in bases:
            last = base.rsplit(".", 1)[-1]
            if base.startswith(_LIGHTNING_PACKAGES) or "Lightning" in last:
                return "lightning-callback" if last in ("Callback", "BasePredictionWriter") else "lightning"
            if last.endswith("Trainer") and base.startswith(("transformers.", "trl.")):
                return "hf-trainer"
            if last == "TrainerCallback":
                return "hf-callback"
            if base.startswith("skorch."):
                return "skorch"
            if base.startswith("fairseq."):
                return "fairseq-criterion" if last.endswith("Criterion") else "fairseq"
            if base.startswith(IGNITE_METRIC_PACKAGES):
                return "ignite-metric"
            if base.startswith(INFERENCE_PIPELINE_PACKAGES) and last.endswith("Pipeline"):
                return "inference-pipeline"
        if all(b.startswith(_NOT_LIGHTNING) or b == "object" for b in bases):
            return "other"
        return None

    def hook(self, func: cst.FunctionDef) -> Hook | None:
        """The framework hook `func` is, with the grad mode it runs under, or None."""
        key = id(func)
        if key not in self._hooks:
            self._hooks[key] = self._hook(func)
        return self._hooks[key]

    def _hook(self, func: cst.FunctionDef) -> Hook | None:
        return self._own_hook(func) or self._rebound_hook(func) or self._delegated_hook(func) or self._module_hook(func)

    def _rebound_hook(self, func: cst.FunctionDef) -> Hook | None:
        """A method its class binds on `self` under a hook's name (`self.update = self._output_update` in
        `__init__`): the framework calling that hook runs it, as it would the hook."""
        cls = self.scopes.enclosing_class(func)
        if cls is None:
            return None
        for name in self._rebound_names(cls).get(func.name.value, ()):
            hook = self._own_hook(func, name)
            if hook is not None:
                return hook
        return None

    def _rebound_names(self, cls: cst.ClassDef) -> dict[str, list[str]]:
        """Method name -> the names of the attributes of `self` that the class's methods bind it to
        (`self.update = self._output_update`: `_output_update` -> [`update`])."""
        key = id(cls)
        if key not in self._rebound:
            found: dict[str, list[str]] = {}
            methods = {s.name.value for s in cls.body.body if type(s) is cst.FunctionDef}
            for assign in self.scopes.tree.descendants(cls, cst.Assign):
                value = assign.value
                if not (type(value) is cst.Attribute and code(value.value) == "self" and value.attr.value in methods):
                    continue
                for target in assign.targets:
                    bound = target.target
                    if type(bound) is cst.Attribute and code(bound.value) == "self" and bound.attr.value != value.attr.value:
                        found.setdefault(value.attr.value, []).append(bound.attr.value)
            self._rebound[key] = found
        return self._rebound[key]

    @cached_property
    def _forward_hooks(self) -> dict[tuple[bool, str], tuple[cst.Call, tuple[int, ...]]]:
        """(a method, its name) -> the registration and the positions of the forward's inputs and output
        among the hook's parameters, for each function registered as a forward hook in this file
        (`model.layer4.register_forward_hook(save_output)`, `...(self.save)`)."""
        found: dict[tuple[bool, str], tuple[cst.Call, tuple[int, ...]]] = {}
        for call in self.scopes.tree.by_type.get(cst.Call, ()):
            func = call.func
            if type(func) is not cst.Attribute or func.attr.value not in FORWARD_HOOK_ARGUMENTS or not call.args:
                continue
            hook = call.args[0].value
            if type(hook) is cst.Name:
                found.setdefault((False, hook.value), (call, FORWARD_HOOK_ARGUMENTS[func.attr.value]))
            elif type(hook) is cst.Attribute and type(hook.value) is cst.Name and hook.value.value == "self":
                found.setdefault((True, hook.attr.value), (call, FORWARD_HOOK_ARGUMENTS[func.attr.value]))
        return found

    def _registered(self, func: cst.FunctionDef) -> tuple[cst.Call, tuple[int, ...]] | None:
        cls = self.scopes.enclosing_class(func)
        return self._forward_hooks.get((cls is not None, func.name.value)) if self._forward_hooks else None

    def _module_hook(self, func: cst.FunctionDef) -> Hook | None:
        """A forward hook of a module: it runs after every forward (`hook_runs`), handed its inputs and
        output, with the grad mode of the forward."""
        registered = self._registered(func)
        if registered is None:
            return None
        params = [p.name.value for p in (*func.params.posonly_params, *func.params.params)]
        if self.scopes.enclosing_class(func) is not None:
            params = params[1:]  # `self`
        handed = tuple(params[i] for i in registered[1] if i < len(params))
        # once per step only where the module's runs are in step loops (`Loops.called_per_step`)
        return Hook(f"the forward hook of `{code(registered[0].func.value)}`", Grad.ON, False, False, handed, tensors=True)

    def forward_hook_of(self, func: cst.FunctionDef) -> cst.BaseExpression | None:
        """The module `func` is registered on as a forward hook in this file, or None."""
        registered = self._registered(func)
        return registered[0].func.value if registered is not None else None  # type: ignore[attr-defined]

    def forward_hook_output(self, func: cst.FunctionDef) -> str | None:
        """The parameter of the forward hook `func` that receives the module's output, or None."""
        hook = self._module_hook(func)
        return hook.history_params[-1] if hook is not None and len(hook.history_params) == 2 else None

    def hook_runs(self, func: cst.FunctionDef) -> list[cst.Call]:
        """The calls of this file that run the module `func` is a forward hook of, and so `func`: for a
        hook on `model.layer4`, `model(x)` where that `model` is read (the registering function), or
        through the attribute of `self` it is kept in (`self.model = model`, then `self.model(x)`)."""
        registered = self._registered(func)
        if registered is None:
            return []
        call = registered[0]
        scopes = self.scopes
        written = (dotted(call.func.value) or "").split(".")  # type: ignore[attr-defined]
        prefixes = [".".join(written[:i]) for i in range(1, len(written) + 1)]
        where = scopes.scope_of(call)
        # names of the module within the registering function, and on `self` (in its class family)
        local = {p for p in prefixes if p != "self" and not p.startswith("self.")}
        on_self = {p for p in prefixes if p.startswith("self.")}
        if written[0] != "self":
            for assign in scopes.tree.descendants(where, cst.Assign):
                if type(assign.value) is cst.Name and assign.value.value == written[0] and len(assign.targets) == 1:
                    target = dotted(assign.targets[0].target) or ""
                    if target.startswith("self."):
                        on_self |= {".".join([target, *written[1:i]]) for i in range(1, len(written) + 1)}
        runs = []
        for run in scopes.tree.by_type.get(cst.Call, ()):
            name = dotted(run.func)
            if not name:
                continue
            name = name.removesuffix(".forward")
            if name in local and scopes.scope_of(run) is where:
                runs.append(run)
            elif name in on_self and scopes.same_self(call, run):
                runs.append(run)
        return runs

    def _own_hook(self, func: cst.FunctionDef, name: str | None = None) -> Hook | None:
        """The hook `func` is as a method named `name` (its own name by default)."""
        name = name or func.name.value
        cls = self.scopes.enclosing_class(func)
        if cls is None:
            return self._engine_handler(func)
        for base in cls.bases:
            facts = self.project.klass(base.value) if base.keyword is None else None
            step = (facts or {}).get("steps", {}).get(name)
            if step is None:
                continue
            evaluation, grad, *handed = step
            if handed:  # a per-step hook of the base class (in another file) calls it on `self`
                positions, element, accumulates, framework = handed
                return Hook(framework, _GRADS[grad], evaluation, True, _params_at(func, positions), element, accumulates)
            # a base class of the project calls it from its step loop
            where = f"the loop of `{code(base.value)}` ({facts.get('file', 'another file')})"  # type: ignore[union-attr]
            return Hook(where, Grad.OFF if grad == "off" else Grad.ON, evaluation)
        kind = self.framework_of(cls)
        if kind in ("lightning", "lightning-callback"):
            if name in LIGHTNING_HOOKS:
                return _from_table("Lightning", LIGHTNING_HOOKS[name])
            if name.startswith(LIGHTNING_EVAL_PREFIXES):
                return Hook("Lightning", Grad.OFF, True, per_step=False)
            return None
        if kind == "skorch" and name == "infer":
            # skorch calls `infer` from train_step (grad on) and evaluation_step (grad off)
            return Hook("skorch", Grad.MAYBE, False, per_step=True)
        if kind == "fairseq" and name in FAIRSEQ_HOOKS:
            return _from_table("fairseq", FAIRSEQ_HOOKS[name])
        if kind == "fairseq-criterion" and name in FAIRSEQ_CRITERION_HOOKS:
            return _from_table("fairseq", FAIRSEQ_CRITERION_HOOKS[name])
        if kind == "ignite-metric" and name in IGNITE_METRIC_HOOKS:
            return _from_table("ignite", IGNITE_METRIC_HOOKS[name])
        if kind == "hf-trainer" and name in HF_TRAINER_HOOKS:
            return _from_table("the Hugging Face Trainer", HF_TRAINER_HOOKS[name])
        if kind == "hf-callback" and name in HF_CALLBACK_HOOKS:
            return _from_table("the Hugging Face Trainer", HF_CALLBACK_HOOKS[name])
        if kind is None and (name in _LIGHTNING_EVAL_HOOKS or name.startswith(LIGHTNING_EVAL_PREFIXES)):
            # a base class from another module of the project: likely a LightningModule
            return Hook("Lightning", Grad.OFF, True, per_step=name in _LIGHTNING_EVAL_HOOKS)
        return None

    def _delegated_hook(self, func: cst.FunctionDef) -> Hook | None:
        """A method that a per-step hook of its class, or of a base class of this file, calls on
        `self` (a template method: ignite's `_BaseRegression.update` calls `self._update((y_pred, y))`):
        it runs once per step too, under the hook's grad mode, handed what the hook was handed."""
        cls = self.scopes.enclosing_class(func)
        if cls is None or not any(stmt is func for stmt in cls.body.body):
            return None
        seen: set[str] = set()
        lineage = [cls]
        while lineage:
            klass = lineage.pop()
            seen.add(klass.name.value)
            delegated = self.delegated(klass).get(func.name.value)
            if delegated is not None:
                hook, positions, element = delegated
                return Hook(hook.framework, hook.grad, hook.evaluation, True, _params_at(func, positions), element, hook.accumulates)
            for base in klass.bases:
                local = self._classes.get(self.imports.resolve(base.value) or "") if base.keyword is None else None
                if local is not None and local.name.value not in seen:
                    lineage.append(local)
        return None

    def delegated(self, cls: cst.ClassDef) -> dict[str, tuple[Hook, tuple[int, ...], int | None]]:
        """The methods that a per-step framework hook of `cls` calls on `self` with what the framework
        hands it (a hook that is handed values: ignite's `Metric.update(output)`), each with the hook,
        the positions of its parameters (after `self`) that receive values derived from those the
        framework hands the hook with history, and, where such an argument is a tuple of which one
        element carries it (`(y_pred, y)`), that element. A method two such hooks call under different
        grad modes runs under either. (Asked once per class.)"""
        key = id(cls)
        if key in self._delegated:
            return self._delegated[key]
        found: dict[str, tuple[Hook, tuple[int, ...], int | None]] = {}
        self._delegated[key] = found
        reads_with_history = self._reads_with_history or _reads_nothing
        for method in cls.body.body:
            hook = self._own_hook(method) if isinstance(method, cst.FunctionDef) else None
            if hook is None or not hook.per_step or not hook.history_params:
                continue
            handed = self._carried(method, hook, reads_with_history)
            for call in self.scopes.tree.descendants(method.body, cst.Call):
                callee = call.func
                if not (type(callee) is cst.Attribute and type(callee.value) is cst.Name and callee.value.value == "self"):
                    continue
                name = callee.attr.value
                if name == method.name.value:
                    continue
                if name in found:  # called from another hook too
                    other = found[name][0]
                    if other.grad is not hook.grad:
                        found[name] = (replace(other, grad=Grad.MAYBE), *found[name][1:])
                    continue
                positions: list[int] = []
                element = None
                positional = [a for a in call.args if a.keyword is None and not a.star]
                for index, arg in enumerate(positional):
                    if not handed or not reads_with_history(arg.value, handed):
                        continue
                    positions.append(index)
                    if type(arg.value) is cst.Tuple:  # `(y_pred, y)`: the elements computed from what was handed
                        carried = [i for i, e in enumerate(arg.value.elements) if reads_with_history(e.value, handed)]
                        element = carried[0] if len(carried) == 1 else None
                where = f"{hook.framework} (through `{cls.name.value}.{method.name.value}`)"
                found[name] = (
                    Hook(where, hook.grad, hook.evaluation, True, (), None, hook.accumulates), tuple(positions), element
                )
        return found

    def _carried(
        self, method: cst.FunctionDef, hook: Hook, reads_with_history: HistoryQuestion
    ) -> set[str]:
        """The names of `method` that hold, with their history, what the framework hands it: its
        history parameters and the names computed from them, where of a handed tuple only the element
        that may carry history counts (`y_pred, y = output`: `y_pred`, not the targets `y`)."""
        carried = set(hook.history_params)
        element = hook.history_element
        changed = True
        while changed:
            changed = False
            for assign in self.scopes.tree.descendants(method.body, cst.Assign):
                for target in assign.targets:
                    for name, value in _pairs(target.target, assign.value, carried, element):
                        if name not in carried and reads_with_history(value, carried):
                            carried.add(name)
                            changed = True
        return carried

    def inference_method(self, func: cst.FunctionDef) -> bool:
        """A public method of a diffusers pipeline subclass (or its `__call__`): inference code, run with
        grad unless it says otherwise. A private helper is run by the pipeline's own entry points (or
        handed to them as a callback), under their grad mode."""
        name = func.name.value
        cls = self.scopes.enclosing_class(func)
        public = name == "__call__" or not name.startswith("_")
        return public and cls is not None and self.framework_of(cls) == "inference-pipeline"

    def kept_return(self, func: cst.FunctionDef) -> KeptReturn | None:
        """What the framework keeps of every return of `func` beyond its step: Lightning < 2.0
        keeps `validation_step`'s returns when the module overrides `validation_epoch_end`
        (an override is itself the sign of the version), `Trainer.predict` every `predict_step`'s;
        fairseq's Trainer every logging output a criterion's `forward` returns."""
        cls = self.scopes.enclosing_class(func)
        kind = self.framework_of(cls) if cls is not None else None
        if kind == "fairseq-criterion":
            return FAIRSEQ_CRITERION_KEPT_RETURNS.get(func.name.value)
        kept = LIGHTNING_KEPT_RETURNS.get(func.name.value)
        if kept is None or cls is None or kind != "lightning":
            return None
        if kept.when_overridden is not None and not any(
            f.name.value == kept.when_overridden for f in self.scopes.tree.descendants(cls, cst.FunctionDef)
        ):
            return None
        return kept

    @cached_property
    def _engine_functions(self) -> set[str]:
        """Names passed to ignite's `Engine(f)` or attached with `@engine.on(...)`."""
        names: set[str] = set()
        for call in self.scopes.tree.by_type.get(cst.Call, ()):
            func = call.func
            if not call.args or (type(func) is cst.Attribute and not func.attr.value.endswith("Engine")):
                continue  # (a method call resolves to a name ending in its method: no resolving needed)
            resolved = self.imports.resolve(func) or ""
            if resolved.startswith("ignite.") and resolved.endswith("Engine") and call.args:
                first = call.args[0].value
                if isinstance(first, cst.Name):
                    names.add(first.value)
        return names

    def _engine_handler(self, func: cst.FunctionDef) -> Hook | None:
        handler = any(
            isinstance(d.decorator, cst.Call) and callee_name(d.decorator) == "on" and self._is_engine_event(d.decorator)
            for d in func.decorators
        )
        if self.engine_process(func) or handler:
            return _from_table("ignite", IGNITE_PROCESS_FUNCTION)
        return None

    def engine_process(self, func: cst.FunctionDef) -> bool:
        """Is `func` (no method) a process function handed to ignite's `Engine(...)`, run once per batch
        under the grad mode of the code that runs the engine (the library table)?"""
        return func.name.value in self._engine_functions and self.scopes.enclosing_class(func) is None

    def _is_engine_event(self, decorator: cst.Call) -> bool:
        """`@trainer.on(Events.ITERATION_COMPLETED)`: per iteration, not per epoch."""
        if not decorator.args:
            return False
        event = self.imports.resolve(decorator.args[0].value) or ""
        return event.startswith("ignite.") and "ITERATION" in event


def _params_at(func: cst.FunctionDef, positions: "tuple[int, ...] | list[int]") -> tuple[str, ...]:
    """The names of `func`'s positional parameters (after `self`) at `positions`."""
    params = [p.name.value for p in (*func.params.posonly_params, *func.params.params)][1:]
    return tuple(params[i] for i in positions if i < len(params))


def _pairs(
    target: cst.BaseExpression, value: cst.BaseExpression, handed: set[str], element: int | None
) -> list[tuple[str, cst.BaseExpression]]:
    """The names `target` binds, each with the expression it receives from `value`; where `value`
    is a handed tuple (or its elements by index) and only its `element` may carry history, the other
    names receive nothing (`y_pred, y = output`, `y_pred, y = output[0], output[1]`)."""
    if type(target) is cst.Name:
        return [(target.value, value)]
    if type(target) not in (cst.Tuple, cst.List):
        return []
    names = [e.value for e in target.elements]
    if type(value) in (cst.Tuple, cst.List) and len(value.elements) == len(names):
        pairs = zip(names, (e.value for e in value.elements))
    elif element is not None and type(value) is cst.Name and value.value in handed:
        pairs = ((n, value) for i, n in enumerate(names) if i == element)
    else:
        pairs = ((n, value) for n in names)
    found = []
    for name, part in pairs:
        index = _handed_index(part, handed)
        if type(name) is cst.Name and (element is None or index is None or index == element):
            found.append((name.value, part))
    return found


def _handed_index(part: cst.BaseExpression, handed: set[str]) -> int | None:
    """`output[1]` of a handed `output`: 1."""
    if type(part) is not cst.Subscript or type(part.value) is not cst.Name or part.value.value not in handed:
        return None
    if len(part.slice) != 1 or type(part.slice[0].slice) is not cst.Index:
        return None
    index = part.slice[0].slice.value
    return int(index.value) if type(index) is cst.Integer else None
