"""Evaluation regions, and which functions run a model with autograd on in them.

An evaluation region is what one `torch.no_grad()` fix wraps: an evaluation
function (by its name, unless the call graph says it is part of its callers),
an evaluation loop (over evaluation data, or after `model.eval()`, that does
not train), or straight-line inference after `model.eval()`.

A per-function fact for evaluation regions (ML003): `validation_step` runs the
model through `self.infer(x)`, a helper with no loop of its own that other
methods also call from training code. The fact is the callee's, computed once
per function from its body and its own callees (a call back into a function
being computed reads as "runs none"), so a caller asks instead of reading the
callee's body. Training code is no model run for this fact: a function that
differentiates wants the graph it builds.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any

import libcst as cst

from memlint.analysis.syntax.expressions import bool_constant, call_arg, code, is_literal, method_name, names_in, target_names
from memlint.analysis.library import (
    CONCATENATIONS,
    GRAD_LEAF_KEYWORD,
    GRAD_LEAF_METHOD,
    LIGHTNING_FORWARD_STEPS,
    MODULE_PLACEMENT,
    MODULE_RUN_METHODS,
    MODEL_RUNNING_METHODS,
    MODULE_SELF_RETURNING,
    NO_GRAD_CALLABLES,
    NON_MODULE_PACKAGES,
    PARAMETER_FREE_MODULES,
    PLAIN_PACKAGES,
)
from memlint.analysis.regions.grad import Grad
from memlint.analysis.regions.frameworks import named_for_evaluation
from memlint.analysis.regions.output_flow import OutputFlow, is_read
from memlint.analysis.flow.project_facts import ProjectFacts
from memlint.analysis.syntax.calls import argument_for, parameter_names
from memlint.analysis.syntax.imports import dotted
from memlint.analysis.tensor_api import TENSOR_API
from memlint.patterns import is_test_path

if TYPE_CHECKING:
    from memlint.analysis.context import FileContext

_HELD_MODEL_RUNS = frozenset().union(*MODEL_RUNNING_METHODS.values())  # (asked of every call first)
# what ends a value's history at once (`out.detach()`, `out.data`)
_DETACHING = ("detach", "data")
# what ends a value's history: detaching it, or taking Python numbers out of it
_ENDING = (*_DETACHING, "item", "tolist")
_NUMBERS = {"int", "float", "bool"}
# tensor methods that pass a value's history on (`out[0].permute(1, 2, 0)`): the others either
# end it (above) or ask for the graph (`backward`, hooks)
_PASSING = TENSOR_API - {*_ENDING, "backward", "register_hook", "retain_grad", "requires_grad_",
                         "register_post_accumulate_grad_hook", "grad", "grad_fn", "detach_"}
_FLOW_DEPTH = 3  # names followed from a model's output
# In a loop recognised by use, what else a step's output may become without its graph being wanted: metadata
# (`past[0][0].shape[-2]`), integers (`logits.argmax(-1)`, `torch.multinomial(probs, 1)`, `x == eos`);
# and how many names deep it is followed there (`out` -> `logits` -> `last` -> `probs` -> `token`)
_METADATA = {"shape", "dtype", "device", "ndim", "is_cuda"}
_INTEGRAL = {"argmax", "argmin", "argsort", "multinomial", "size", "dim", "numel", "eq", "ne"}
_DECODING_DEPTH = 6
_COMPREHENSIONS = (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)
# methods that place or switch a module and return it (`Net().to(device).eval()`)
# what a module class derives from where it holds nothing else; what makes or registers a parameter
# bases that add no parameter to a class: `nn.Module`, or a library module that holds none (smplx's `SMPLLayer`)
_EMPTY_BASES = {"torch.nn.Module", "torch.nn.modules.module.Module"} | PARAMETER_FREE_MODULES
_REGISTERS = {"register_parameter", "add_module", "register_module"}
_PARAMETER_MAKERS = {"torch.nn.Parameter", "torch.nn.parameter.Parameter", "setattr"}
# what a module class can hold: no parameter at all, or none where it is handed only literals
HOLDS_NONE = "none"
HOLDS_WHAT_IT_IS_HANDED = "plain-arguments"
_HANDED_DEPTH = 2  # methods followed back through the calls that hand them a value kept on `self`
_NUMBER_METHODS = {"item", "tolist", "numel", "dim", "__len__"}
_NUMBER_BUILTINS = {"len", "int", "float", "bool", "str", "round", "abs"}
_PLAIN_TYPES = {"int", "float", "bool", "str", "Optional[int]", "Optional[float]", "Optional[bool]", "Optional[str]"}


class ModelRuns:
    def __init__(self, model: "FileContext") -> None:
        self.model = model
        self._runs: dict[int, tuple[cst.Call, ...] | None] = {}
        self._backwarded: dict[int, set[str]] = {}  # id(scope) -> names it differentiates
        self._called: dict[int, set[str]] = {}  # id(scope) -> what it calls, as written
        self._inferring: dict[int, bool] = {}  # id(function) -> `infers_without_grad`
        self._object_runs: dict[int, dict[str, str]] = {}  # id(class) -> `object_runs`

    def model_run(self, func: cst.FunctionDef) -> tuple[cst.Call, ...] | None:
        """The chain of calls by which `func` runs a model with grad on: `(self.module_(x),)` for a
        direct run, `(self.infer(x), self.module_(x))` through a callee; None when it runs none, when
        it differentiates (training code), or when it sets grad off on entry."""
        return self.model.memo.ask(self._runs, id(func), None, lambda: self._compute(func))

    def _compute(self, func: cst.FunctionDef) -> tuple[cst.Call, ...] | None:
        model = self.model
        if model.grad.entry_state(func) is Grad.OFF or model.loops.trains_each_iteration(func):
            return None
        for call in model.tree.descendants(func.body, cst.Call):
            if model.scope_of(call) is not func or model.grad_state(call) is Grad.OFF:
                continue
            if self._runs_shown_module(call, func):
                return (call,)
            for callee in model.running_callees(call):
                inner = self.model_run(callee)
                if inner is not None:
                    return (call, *inner)
        return None

    def object_runs(self, cls: cst.ClassDef) -> dict[str, str]:
        """What calling a method of the class `cls` on one of its objects runs with grad on, in words, by
        method name (`model.infer(x)` where `infer` returns `self(x).argmax(-1)`; a predictor's
        `predictor.apply(x)` where `apply` returns `self.model(x)` of the module it holds): the methods
        it defines or inherits in this file that run a model when their caller's grad is on and train
        nothing, other than `forward` (a call of the object, asked as such) and dunders, and that are no
        evaluation region of their own (reported there); and a Lightning step it leaves to Lightning
        that runs the module's forward (`predict_step`: the library table). A step Lightning calls
        without grad (`predict_step`) runs with its caller's grad when the project calls it itself.
        (What the class inherits from a base of another file, the project index adds.)"""
        # (a question back into it while computing reads as "runs none")
        return self.model.memo.ask(self._object_runs, id(cls), {}, lambda: self._compute_object_runs(cls))

    def _compute_object_runs(self, cls: cst.ClassDef) -> dict[str, str]:
        model = self.model
        kind = model.provenance.class_kinds().get(cls.name.value)
        found: dict[str, str] = {}
        methods = model.resolved_methods(cls)
        for name, method in methods.items():
            if method is None or name.startswith("__") or name in MODULE_RUN_METHODS:
                continue
            chain = self._run_when_called(method)
            if chain is None or self._takes_gradients_through(method, frozenset()):
                continue  # (a method that takes gradients through a network it holds needs grad on)
            if not any(model.eval_regions.own_region(step) for step in chain):
                found[name] = f"`{model.summaries.name(method)}` calls {model.summaries.describe(chain[-1])}"
        # a base of another file of the project may define the step: its own facts say, not Lightning's default
        if kind == "lightning" and not any(model.project.klass(base.value) for base in cls.bases if base.keyword is None):
            for name in LIGHTNING_FORWARD_STEPS - methods.keys():
                found[name] = f"Lightning's `{name}` runs the module's forward"
        return found

    def _takes_gradients_through(self, func: cst.FunctionDef, seen: frozenset[int]) -> bool:
        """Does `func`, or a function of this file it calls, call a method of an object that takes
        gradients (`self.sdf_network.gradient(x)`, where that network's class calls `torch.autograd.grad`:
        `Provenance.takes_gradients`)? It needs grad on."""
        model = self.model
        seen = seen | {id(func)}
        for call in model.tree.descendants(func.body, cst.Call):
            if model.scope_of(call) is not func:
                continue
            if type(call.func) is cst.Attribute and model.provenance.takes_gradients(call.func.value, call):
                return True
            if any(id(f) not in seen and self._takes_gradients_through(f, seen) for f in model.local_callees(call)):
                return True
        return False

    def _run_when_called(self, method: cst.FunctionDef) -> tuple[cst.Call, ...] | None:
        """The chain by which `method`, called by the project with grad on, runs a model (`model_run`);
        a framework step that the framework runs without grad (Lightning's `predict_step`), whose body
        sets no grad mode of its own around the run and trains nothing, runs it too."""
        model = self.model
        grad = model.grad
        if grad.declared_entry(method) is not Grad.OFF:
            return self.model_run(method)
        if model.frameworks.hook(method) is None or any(grad.effect(d.decorator) is not None for d in method.decorators):
            return None  # declared so where it is defined (`@torch.no_grad()`): off for every caller
        if model.loops.trains_each_iteration(method) or model.loops.has_backward(method) or model.loops.trains(method):
            return None
        for call in model.tree.descendants(method.body, cst.Call):
            if model.scope_of(call) is method and grad.set_around(call) is method and self._runs_shown_module(call, method):
                return (call,)
        return None

    def infers_without_grad(self, func: cst.FunctionDef) -> bool:
        """Does `func` run a model (directly, or through a function of this file that runs one), and
        only with grad off (`with torch.no_grad():` around it, or declared so), never differentiating:
        an inference step (trl's `compute_reference_log_probs`)?"""
        # (a call back into it while computing reads as "no")
        return self.model.memo.ask(self._inferring, id(func), False, lambda: self._compute_inferring(func))

    def _compute_inferring(self, func: cst.FunctionDef) -> bool:
        model = self.model
        if model.loops.trains_each_iteration(func) or model.loops.has_backward(func):
            return False
        off = model.grad.declared_entry(func) is Grad.OFF
        found = False
        for call in model.tree.descendants(func.body, cst.Call):
            if model.scope_of(call) is not func:
                continue
            if self.runs_module(call):
                pass
            elif not any(self.model_run(c) is not None or self.infers_without_grad(c) for c in model.running_callees(call)):
                continue
            if not off and model.grad_state(call) is not Grad.OFF:
                return False
            found = True
        return found

    def handed_runs(self, call: cst.Call) -> list[cst.BaseExpression]:
        """The arguments of `call` that its callee runs as a model, with grad on, without training
        it: a function of this file by its summary, or of another file of the project by its facts
        (`get_reward(self.reward_model, ids)` where `get_reward` runs the `model` it is handed)."""
        model = self.model
        found = []
        for callee in model.local_callees(call):
            run = model.summaries.model_run(callee)
            if run is not None and not model.loops.trains(callee):
                found.append(model.summaries.argument_for(call, callee, run[1]))
        if not found:
            entry = model.provenance.project_callee(call, call)
            if entry and not entry.get("trains") and entry.get("grad") != "off":
                found = [ProjectFacts.argument(entry, call, param) for param in entry.get("runs") or ()]
        return [arg for arg in found if arg is not None]

    def handed_for_inference(self, call: cst.Call) -> list[cst.BaseExpression]:
        """The arguments of `call` that its callee puts in eval mode and never trains (`prepare_deepspeed(
        ref_model, ...)`): a function of this file by its summary, or of another file by its facts."""
        model = self.model
        found = []
        for callee in model.local_callees(call):
            found += [model.summaries.argument_for(call, callee, param) for param in model.summaries.evaluates(callee)]
        if not found:
            entry = model.provenance.project_callee(call, call)
            if entry and not entry.get("trains"):
                found = [ProjectFacts.argument(entry, call, param) for param in entry.get("evals") or ()]
        return [arg for arg in found if arg is not None]

    def runs_module(self, call: cst.Call) -> bool:
        """Does `call` itself run a module's forward (not a loss, not a function of this file)? A
        module by what the file does with it (`.eval()`, `.parameters()`), whatever its name; a
        guess from a name only where the file does not show the callee is something else."""
        model = self.model
        facts = model.module_facts
        provenance = model.provenance
        runs = facts.runs_module(call) or self.runs_held_model(call) or (
            provenance.is_module_call(call) and not facts.not_module(call) and not _literals_only(call)
        )
        return (
            runs
            and not provenance.is_loss_call(call)
            and not self.parameter_free(call)
            and not self._builds(call)
            and not self._runs_without_grad(call)
        )

    def runs_held_model(self, call: cst.Call) -> bool:
        """`pipeline.progress(batches)` after `model.eval()`: a method of a library object that runs the
        model it holds and trains it only in training mode (the library table), where the scope has put
        a model in eval mode: a forward with grad on that nothing differentiates. The object's class is
        the one the file constructs it from or annotates it with (`pipeline: TrainPipelineSparseDist`)."""
        func = call.func
        if type(func) is not cst.Attribute or func.attr.value not in _HELD_MODEL_RUNS:
            return False
        model = self.model
        provenance = model.provenance
        made = provenance.receiver_class(func.value, call)
        if not made:
            annotated = provenance.annotated_class(func.value, call)
            made = model.imports.qualify(annotated) if annotated else ""
        return func.attr.value in MODEL_RUNNING_METHODS.get(made, ()) and model.loops.follows_model_eval(call)

    def _runs_without_grad(self, call: cst.Call) -> bool:
        """`self.asr_model(wav)` where `self.asr_model = Speech2Text(...)`: an object of a library
        class whose `__call__` runs its models without grad (the library table), or of a class of
        this file or of another file of the project whose `forward` (or `__call__`, its own or
        inherited) runs all it does without grad."""
        model = self.model
        values = model.provenance.held_values(call.func, call)  # type: ignore[attr-defined]
        if not values and type(call.func) in (cst.Name, cst.Attribute):
            # `scorer(x)` of a parameter annotated with such a class (`scorer: Scorer`)
            annotated = model.provenance.annotated_class(call.func, call)
            cls = model.calls.classes.get(annotated or "")
            return cls is not None and self.class_without_grad(cls)
        return bool(values) and all(
            type(v) is cst.Call
            and (
                (model.imports.resolve(v.func) or "") in NO_GRAD_CALLABLES
                or self._class_without_grad(v.func)
                or (model.project.constructed(v) or {}).get("call_grad") == "off"
            )
            for v in values
        )

    def _class_without_grad(self, made: cst.BaseExpression) -> bool:
        cls = self.model.calls.classes.get(made.value) if type(made) is cst.Name else None
        return cls is not None and self.class_without_grad(cls)

    def class_without_grad(self, cls: cst.ClassDef, seen: frozenset[int] = frozenset()) -> bool:
        """Does calling an object of `cls` run all it does without grad: its own `__call__` or
        `forward` does, or, where it defines neither, the one it inherits (the first base that says,
        of this file or another file of the project: pytorch-metric-learning's miners subclass a
        `BaseMiner` whose `forward` runs `mine` under `torch.no_grad()`)?"""
        model = self.model
        own = [s for s in cls.body.body if type(s) is cst.FunctionDef and s.name.value in ("__call__", "forward")]
        if own:
            return any(model.grad.runs_without_grad(s) or self._returns_no_graph(s) for s in own)
        for base in cls.bases:
            if base.keyword is not None:
                continue
            local = model.calls.classes.get(base.value.value) if type(base.value) is cst.Name else None
            if local is not None and id(local) not in seen:
                return self.class_without_grad(local, seen | {id(cls)})
            facts = model.project.klass(base.value)
            if facts is not None:  # a class of another file of the project: its definition decides
                return facts.get("call_grad") == "off"
        return False

    def _returns_no_graph(self, func: cst.FunctionDef) -> bool:
        """Is all `func` returns computed with grad off (`with torch.no_grad(): out = self.mine(x)`
        then `return out`), and does it keep none of its arguments? Then what it computes with grad
        on around that block (`self.reset_stats()` before, a check of the result after) is freed
        when it returns: calling it saves no activations for a backward."""
        model = self.model
        returns = [r for r in model.tree.descendants(func.body, cst.Return) if model.scope_of(r) is func]
        if not returns:
            return False
        for ret in returns:
            if ret.value is None or model.grad_state(ret) is Grad.OFF:
                continue
            values = model.provenance.held_values(ret.value, ret) if type(ret.value) is cst.Name else []
            if not values or any(model.grad_state(v) is not Grad.OFF for v in values):
                return False
        return not model.summaries.keeps(func)  # (asked last: most forwards return what they compute with grad)

    def _builds(self, call: cst.Call) -> bool:
        """`actor = Model[0](envs).to(device)` with `actor.eval()` later: the call returns a module
        (placed, maybe), so it constructs one; running a module returns tensors."""
        model = self.model
        node: cst.CSTNode = call
        parent = model.tree.parent_of(node)
        # up through `.to(device)`, `.cuda()`, `.eval()` on the result
        while isinstance(parent, cst.Attribute) and parent.attr.value in MODULE_SELF_RETURNING:
            outer = model.tree.parent_of(parent)
            if not isinstance(outer, cst.Call):
                return False
            node, parent = outer, model.tree.parent_of(outer)
        if not (isinstance(parent, cst.Assign) and len(parent.targets) == 1):
            return False
        target = parent.targets[0].target
        return isinstance(target, (cst.Name, cst.Attribute)) and model.module_facts.is_module(target, parent)

    def _runs_shown_module(self, call: cst.Call, func: cst.FunctionDef) -> bool:
        """A model run that a caller may rely on, not a guess from a name: a module the file shows
        (`self.module_(x)` where the class calls `self.module_.eval()`, or binds it only to modules it
        builds: `self.backbone = nn.Linear(16, 4)`), or a module `func` is handed (`model(x)` of a
        parameter). Never an imported name (`download_model(...)`, `hooks._call_configure_model(...)`
        are a library's functions) nor a method of an attribute nothing shows is a module
        (`self.encoding_strategy.encode_head(...)`)."""
        if not self.runs_module(call) or self._imported(call.func):
            return False
        model = self.model
        if model.module_facts.runs_module(call):
            return True
        built = model.provenance.held_values(call.func, call) if _on_self(call.func) else []
        if built and all(model.provenance.is_module_factory(value) for value in built):
            return True
        return isinstance(call.func, cst.Name) and call.func.value in model.params(func)

    def _imported(self, func: cst.BaseExpression) -> bool:
        """Is `func` an imported name, or reached through one (`hooks._call_configure_model`)?"""
        imports = self.model.imports
        root = (dotted(func) or "").partition(".")[0]
        return bool(root) and (root in imports.aliases or root in imports.relative)

    def parameter_free(self, call: cst.Call) -> bool:
        """`act(x)` where `act = torch.nn.LogSoftmax(dim=1)` (or `torch.nn.ReLU()(x)`, or `self.act(x)`
        where every value set on `self.act` is one, or `criterion(x)` where `criterion` is a parameter, or
        `self.criterion` is set from one in `__init__`, and every call in this file hands one): a module
        with nothing to differentiate; whether its result has history is its input's business."""
        model = self.model
        made = [call.func]
        if isinstance(call.func, cst.Name):
            name, scope = call.func.value, model.scope_of(call)
            bindings = model.bindings(scope, name)
            # a name the function neither binds nor takes is the one where it is defined: an enclosing
            # function's, else the module's (`criterion = CTCLoss()` at the top of a script)
            while not bindings and type(scope) is cst.FunctionDef and name not in model.params(scope):
                scope = model.scope_of(scope)
                bindings = model.bindings(scope, name)
            made = [b.value for b in bindings] if bindings else made
        elif isinstance(call.func, cst.Attribute):  # `self.rvm(...)` where `self.rvm = RelativeVolumeMel()`
            made = list(model.provenance.held_values(call.func, call)) or made  # type: ignore[attr-defined]
        handed = model.handed  # type: ignore[attr-defined]
        made = [value for m in made for value in (handed.parameter_values(m) or [m])]
        made = [value for m in made for value in self._unplaced_makers(m)]
        return all(
            isinstance(m, cst.Call)
            and (
                (model.imports.resolve(m.func) or "") in PARAMETER_FREE_MODULES
                or self._made_without_parameters(m)
            )
            for m in made
        )

    def _unplaced_makers(self, value: cst.BaseExpression | None) -> list[cst.BaseExpression | None]:
        """`criterion.cuda()` (or `.to(device)`, `.eval()`): the same module, so what makes `criterion`
        where it is moved (`criterion = CTCLoss()` before `criterion = criterion.cuda()`); else `value`."""
        receiver = value
        while type(receiver) is cst.Call and method_name(receiver) in MODULE_SELF_RETURNING:
            receiver = receiver.func.value  # type: ignore[attr-defined]
        if receiver is not value and type(receiver) is cst.Call:
            return [receiver]  # `EdgeAccuracy(0.5).to(device)`: the construction, moved
        if receiver is value or type(receiver) is not cst.Name:
            return [value]
        model = self.model
        name = receiver.value
        bindings = model.provenance.reaching_bindings(model.scope_of(value), name, value)  # type: ignore[attr-defined]
        makers = [b.value for b in bindings if not _placed_self(b.value, name)]
        return makers or [value]

    def _made_without_parameters(self, made: cst.Call, depth: int = 0) -> bool:
        """Does `made` construct a module of this project that holds no parameters (its definition
        says so, in this file or another, where need be of the arguments `made` hands it)?"""
        cls = self.model.calls.classes.get(made.func.value) if type(made.func) is cst.Name else None
        held = self.parameters_held(cls) if cls is not None else (self.model.project.constructed(made) or {}).get("parameters")
        if held == HOLDS_NONE:
            return True
        # what it keeps is what it is handed: literals (`ThresholdReducer(low=0)`) are no module, nor
        # is a module that holds no parameter (`PerAnchorReducer(inner)` for inner in [MeanReducer()])
        return held == HOLDS_WHAT_IT_IS_HANDED and all(
            arg.star == "" and (literal_at(self.model, arg.value, made) or self._parameter_free_value(arg.value, made, depth))
            for arg in made.args
        )

    def _parameter_free_value(self, value: cst.BaseExpression, at: cst.CSTNode, depth: int) -> bool:
        """Is `value`, read at `at`, surely a module of the project that holds no parameter: a
        construction of one, or a name every binding of which is one or a loop's target over a list
        of them (`for inner in [MeanReducer(), AvgNonZeroReducer()]`)?"""
        if depth >= _HANDED_DEPTH:
            return False
        if type(value) is cst.Call:
            return self._made_without_parameters(value, depth + 1)
        if type(value) is not cst.Name:
            return False
        bound = self.model.bindings(self.model.scope_of(at), value.value)
        return bool(bound) and all(
            (
                type(b.node) is cst.For
                and type(b.node.target) is cst.Name
                and type(b.node.iter) in (cst.List, cst.Tuple)
                and all(
                    type(e) is cst.Element and type(e.value) is cst.Call and self._made_without_parameters(e.value, depth + 1)
                    for e in b.node.iter.elements
                )
            )
            or (type(b.value) is cst.Call and self._made_without_parameters(b.value, depth + 1))
            for b in bound
        )

    def project_bases(self, cls: cst.ClassDef) -> list[str]:
        """The base classes of `cls` that other files of the project may define, as written, and the
        imported classes it keeps an object of (`_kept_imports`): what they hold, `cls` holds."""
        model = self.model
        return [
            dotted(base.value)
            for base in cls.bases
            if base.keyword is None
            and (model.imports.resolve(base.value) or "") not in _EMPTY_BASES
            and not (type(base.value) is cst.Name and base.value.value in model.calls.classes)
            and dotted(base.value)
        ] + self._kept_imports(cls)

    def parameters_held(self, cls: cst.ClassDef | None, seen: frozenset[int] = frozenset(), own: bool = False) -> str | None:
        """Can `cls`, a module, hold no parameter? HOLDS_NONE where its bases are `nn.Module` or such
        classes of the project, nothing in it makes or registers a parameter or a submodule, and
        every attribute it sets is a constant, a value that is no module (a count, `.item()`), or
        an argument annotated as a number, a string or a bool (wenet's `FrameReducer(blank_threshold:
        float)`); HOLDS_WHAT_IT_IS_HANDED where it also keeps arguments its constructor is handed
        unannotated, or a base class does (pytorch-metric-learning's `ThresholdReducer(low=None)`):
        none where its construction hands only literals; None where it may hold parameters. Its
        output has history only where its input has. `own`: as far as this file says, taking the
        bases of other files (`project_bases`) for none (the project index joins what they hold)."""
        model = self.model
        if cls is None or not cls.bases:
            return None
        held = HOLDS_NONE
        for base in cls.bases:
            if base.keyword is not None:
                continue
            if (model.imports.resolve(base.value) or "") in _EMPTY_BASES:
                continue
            local = model.calls.classes.get(base.value.value) if type(base.value) is cst.Name else None
            if local is not None:
                inherited = None if id(local) in seen else self.parameters_held(local, seen | {id(cls)}, own)
            elif own:
                continue
            else:
                inherited = (model.project.klass(base.value) or {}).get("parameters")
            if inherited not in (HOLDS_NONE, HOLDS_WHAT_IT_IS_HANDED):
                return None
            if inherited == HOLDS_WHAT_IT_IS_HANDED:
                held = HOLDS_WHAT_IT_IS_HANDED
        tree = model.tree
        for call in tree.descendants(cls.body, cst.Call):
            if method_name(call) in _REGISTERS or (model.imports.resolve(call.func) or "") in _PARAMETER_MAKERS:
                return None
            if method_name(call) == "__init__" and not all(
                arg.star or is_literal(arg.value) or self._argument(arg.value, model.scope_of(call)) for arg in call.args
            ):
                return None  # a base handed something its constructor did not get: maybe a module
        for stmt in tree.descendants(cls.body, cst.Assign):
            scope = model.scope_of(stmt)
            if scope is cls and type(stmt.value) is cst.Call:
                return None  # a class attribute built by a call: maybe a module
            for target in stmt.targets:
                attr = target.target
                if type(attr) is cst.Attribute and type(attr.value) is cst.Name and attr.value.value == "self":
                    kind = self._kept_value(stmt.value, scope, stmt, own)
                    if kind is None:
                        return None
                    if kind == HOLDS_WHAT_IT_IS_HANDED:
                        held = kind
        if held == HOLDS_WHAT_IT_IS_HANDED and not self._plain_defaults(cls):
            return None
        return held

    def _kept_value(self, value: cst.BaseExpression, scope: cst.CSTNode, at: cst.CSTNode, own: bool) -> str | None:
        """What a value set on `self` is: HOLDS_NONE where it is surely no module (`_plain_value`),
        HOLDS_WHAT_IT_IS_HANDED where it is an unannotated argument of the constructor (or picks
        between one and a plain value), None otherwise."""
        if self._plain_value(value, scope, at):
            return HOLDS_NONE
        if type(value) is cst.Call and self._kept_construction(value, own):
            return HOLDS_NONE
        if type(value) is cst.IfExp:
            kinds = {self._kept_value(value.body, scope, at, own), self._kept_value(value.orelse, scope, at, own)}
            return None if None in kinds else HOLDS_WHAT_IT_IS_HANDED if HOLDS_WHAT_IT_IS_HANDED in kinds else HOLDS_NONE
        if isinstance(scope, cst.FunctionDef) and scope.name.value == "__init__" and self._argument(value, scope):
            return HOLDS_WHAT_IT_IS_HANDED
        return None

    def _kept_construction(self, made: cst.Call, own: bool) -> bool:
        """A default built in the constructor (`reducer if reducer is not None else MeanReducer()`):
        a module of the project that holds no parameter where it is handed only literals, or a
        library class that holds none (`torchaudio.transforms.MelSpectrogram(n_mels=n_mels)`). `own`: as
        far as this file says, taking a class of another file of the project for one (it is listed
        with `project_bases`, and the project index joins what it holds)."""
        if self._library_without_parameters(made.func):
            return True  # whatever it is handed (sizes, rates)
        if not all(arg.star == "" and is_literal(arg.value) for arg in made.args):
            return False
        if own and self._imported(made.func):
            return True
        return self._made_without_parameters(made)

    def _library_without_parameters(self, func: cst.BaseExpression) -> bool:
        """Does `func` name a class of torch that holds no parameter (a parameter-free layer, a sampler)?"""
        resolved = self.model.imports.resolve(func) or ""
        return resolved in PARAMETER_FREE_MODULES or resolved.startswith(NON_MODULE_PACKAGES)

    def _kept_imports(self, cls: cst.ClassDef) -> list[str]:
        """The imported classes `cls` constructs and keeps on `self` with literal arguments (the
        project index joins what they hold; one it cannot find may hold parameters)."""
        found = []
        for stmt in self.model.tree.descendants(cls.body, cst.Assign):
            if any(type(t.target) is cst.Attribute for t in stmt.targets):
                values = [stmt.value.body, stmt.value.orelse] if type(stmt.value) is cst.IfExp else [stmt.value]
                found += [
                    name
                    for v in values
                    if type(v) is cst.Call
                    and self._imported(v.func)
                    and not self._library_without_parameters(v.func)
                    and (name := dotted(v.func))
                ]
        return found

    def _argument(self, value: cst.BaseExpression, scope: cst.CSTNode) -> bool:
        """Is `value` a parameter of `scope` as handed (no default stands in: `_plain_defaults`)?"""
        return type(value) is cst.Name and isinstance(scope, cst.FunctionDef) and value.value in self.model.params(scope)

    def _plain_defaults(self, cls: cst.ClassDef) -> bool:
        """Are the defaults of `cls`'s constructor literals (what it keeps when handed nothing)?"""
        for stmt in cls.body.body:
            if type(stmt) is cst.FunctionDef and stmt.name.value == "__init__":
                params = (*stmt.params.posonly_params, *stmt.params.params, *stmt.params.kwonly_params)
                return all(p.default is None or is_literal(p.default) or self._function_of_file(p.default) for p in params)
        return True

    def _function_of_file(self, value: cst.BaseExpression) -> bool:
        """`aggregation_func=aggregation_func`: a name only a module-level function of this file binds."""
        model = self.model
        return (
            type(value) is cst.Name
            and bool(model.functions.get(value.value))
            and all(model.tree.parent_of(f) is model.module for f in model.functions[value.value])
            and all(type(b.node) is cst.FunctionDef for b in model.bindings(model.module, value.value))
        )

    def _plain_value(self, value: cst.BaseExpression, scope: cst.CSTNode, at: cst.CSTNode | None = None, depth: int = 0) -> bool:
        """Surely no module: a constant (also one the project defines, `c_f.COLLECT_STATS`), a
        number a call computes (`len(x)`, `t.item()`), an object of a class of torch that is never a
        module (NON_MODULE_PACKAGES), what NumPy makes (PLAIN_PACKAGES), a container or an item of such
        values, a local bound only to such values, or a parameter of `scope` annotated as a number, a
        string or a bool."""
        model = self.model
        if is_literal(value):
            return True
        if type(value) is cst.UnaryOperation:
            return self._plain_value(value.expression, scope, at)
        if type(value) in (cst.Dict, cst.List, cst.Tuple, cst.Set):
            return all(  # `{"a2m": a2m_indexes, "smpl": np.arange(24)}`: a container of plain values
                type(e) in (cst.Element, cst.DictElement) and self._plain_value(e.value, scope, at, depth)
                for e in value.elements
            )
        if type(value) is cst.Subscript:  # an item of an array or a number is one
            return depth < _HANDED_DEPTH and self._plain_value(value.value, scope, value if at is None else at, depth + 1)
        if type(value) is cst.Call:
            if (model.imports.resolve(value.func) or "").startswith(NON_MODULE_PACKAGES + PLAIN_PACKAGES):
                return True  # a sampler (`torch.distributions.Beta(alpha, alpha)`), an array: no module
            return method_name(value) in _NUMBER_METHODS or (
                type(value.func) is cst.Name and value.func.value in _NUMBER_BUILTINS and not model.bindings(scope, value.func.value)
            )
        if type(value) is cst.Attribute and self._imported(value):
            return model.project.constant(value)  # of an imported module of the project
        if type(value) is cst.Name:
            if isinstance(scope, cst.FunctionDef):
                for param in (*scope.params.params, *scope.params.kwonly_params, *scope.params.posonly_params):
                    if param.name.value == value.value and param.annotation is not None:
                        return code(param.annotation.annotation) in _PLAIN_TYPES
            if at is not None and isinstance(scope, cst.FunctionDef):
                if value.value in model.params(scope) and scope.name.value != "__init__" and depth < _HANDED_DEPTH:
                    # a method's parameter: what its calls in the file hand it (`self.set_stats(..., len(losses))`)
                    sites = model.call_sites().get(scope, ())
                    return bool(sites) and all(
                        (handed := model.summaries.argument_for(site, scope, value.value)) is not None
                        and self._plain_value(handed, model.scope_of(site), site, depth + 1)
                        for site in sites
                    )
                bound = model.bindings(scope, value.value)
                return bool(bound) and all(
                    b.value is not None and b.value is not value and self._plain_value(b.value, scope, None, depth)
                    for b in bound
                )
        return False

    def called_values(self, scope: cst.CSTNode) -> set[str]:
        """The names and attributes that `scope` itself calls (`model`, `self.net`), as written."""
        key = id(scope)
        if key not in self._called:
            model = self.model
            self._called[key] = {
                name
                for c in model.tree.descendants(scope, cst.Call)
                if (name := dotted(c.func)) is not None and model.scope_of(c) is scope
            }
        return self._called[key]

    def feeds_backward(self, call: cst.Call) -> bool:
        """Is what `call` returns differentiated in its function (`y = self.infer(x)`, then
        `loss = criterion(y, t)`, `loss.backward()`)? Then it is training code, graph wanted."""
        model = self.model
        scope = model.scope_of(call)
        provenance = model.provenance
        if id(scope) not in self._backwarded:
            self._backwarded[id(scope)] = provenance.backwarded_names(scope)
        backwarded = self._backwarded[id(scope)]
        if not backwarded:
            return False
        statement = model.tree.statement_of(call)
        if isinstance(statement, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
            targets = [t.target for t in statement.targets] if isinstance(statement, cst.Assign) else [statement.target]
            bound = {n for t in targets for n in target_names(t)}
        else:
            bound = set()
        if any(model.tree.contains(expr, call) for _, exprs in provenance.backward_calls(scope) for expr in exprs):
            return True  # `self.infer(x).sum().backward()`
        return bool(bound & provenance.dependencies(backwarded, scope))


class EvalRegions:
    """Evaluation regions of one file (ML003 and the project summary ask the same questions)."""

    def __init__(self, model: "FileContext") -> None:
        self.model = model
        self._loops: dict[int, bool] = {}  # id(loop) -> is it an evaluation loop (asked per call in it)
        self._evaluated: dict[int, set[str]] = {}  # id(scope) -> receivers of `.eval()` in it
        self._by_name: dict[int, bool] = {}  # id(method) -> `_differentiated_by_name`
        self._trained: dict[int, bool] = {}  # id(function) -> `trained_through`
        self._by_callers: dict[int, bool] = {}  # id(function) -> `evaluated_by_callers`
        self._spent: dict[int, bool] = {}  # id(loop) -> `spends_outputs`
        self._self_assigns: dict[int, tuple[dict[str, list[cst.BaseExpression]], set[str]]] = {}  # `_class_assigns`
        self._held_own: dict[int, bool] = {}  # id(method) -> `_own_inference_region`
        self._method_runs: dict[int, tuple[cst.Call, str]] = {}  # id(call) -> (the call, `method_run`)
        self._through: dict[int, tuple[cst.Call, bool]] = {}  # id(call) -> (the call, `runs_through`)
        self._by_use: dict[int, bool] = {}  # id(scope) -> `_evaluating_by_use`
        self._used_loops: dict[int, bool] = {}  # id(scope) -> `_loops_by_use`

    def region(self, call: cst.Call) -> cst.CSTNode | None:
        """The evaluation region `call` runs in, the one a `no_grad` fix wraps: an evaluation
        function of its own, else the outermost evaluation loop around it that does not train,
        else straight-line inference after `model.eval()`; None outside evaluation code."""
        loops = self.model.loops
        scope = self.model.scope_of(call)
        if not self.may_evaluate(scope):
            return None
        if (
            loops.is_eval_function(scope)
            and self.model.provenance.class_kind(scope) != "module"
            and not self._part_of_callers(scope, call)
        ):
            return scope  # (a plain module's own `predict` method is part of its forward)
        for loop in reversed(self.model.enclosing_loops(call)):  # outermost first
            if self._eval_loop(loop):
                return loop
        if self._evaluating_by_use(scope) or self.engine_evaluation(scope):
            return scope
        if self._inference_after_eval(call, scope):
            # a script's top-level inference: the statement is the region (a module is no `with` body)
            return scope if isinstance(scope, cst.FunctionDef) else self._top_level_statement(call)
        if self._detached_at_once(call, scope):
            return self._top_level_statement(call)  # the statement that runs the model is the region
        if self._runs_held_for_inference(call, scope):
            return scope
        if isinstance(scope, cst.FunctionDef) and self._evaluating_pass(call, scope):
            return scope
        if self._left_to_subclasses(call) and self.overridden_evaluation(call):
            return self._top_level_statement(call)  # the one call its subclasses' evaluations run under
        if isinstance(scope, cst.FunctionDef) and self.evaluated_by_callers(scope):
            return scope
        return None

    def may_evaluate(self, scope: cst.CSTNode) -> bool:
        """Can a call directly in `scope` be in an evaluation region? Only in an evaluation function,
        or where `scope` switches a model's mode (`.eval()`, `.train(...)`: inference after
        `model.eval()`, a loop after it) or loops over evaluation data: by syntax alone, so that the
        costly questions of `region` (and a rule's before it) are asked only there."""
        return (
            self.model.loops.is_eval_function(scope)
            or id(scope) in self._evaluating_scopes
            or self._loops_by_use(scope)
            or (isinstance(scope, cst.FunctionDef) and self.evaluated_by_callers(scope))
            or id(scope) in self._calling_overrides
            or id(scope) in self._inference_methods
            or id(scope) in self._flag_trained
            or self._evaluating_by_use(scope)
            or self.engine_evaluation(scope)
        )

    def engine_evaluation(self, scope: cst.CSTNode) -> bool:
        """Is `scope` an evaluator's step by use: a process function handed to ignite's `Engine`, which
        runs it once per batch under its caller's grad mode (the library table), that never
        differentiates nor trains, itself or through its callees? What it returns goes to the engine's
        metrics; no graph it records is wanted."""
        if type(scope) is not cst.FunctionDef or not self.model.frameworks.engine_process(scope):
            return False
        loops = self.model.loops
        return not (loops.has_backward(scope) or loops.trains(scope) or loops.trains_each_iteration(scope))

    def _evaluating_by_use(self, scope: cst.CSTNode) -> bool:
        """Does the function `scope` evaluate by use, whatever its name: a loop of its own runs a model on
        each element of what it iterates (`loops.feeds_elements`), it never differentiates, and no
        output of its model runs leaves it with its history (`output_flow`): every graph it
        records dies unused (a calibration pass over cached inputs, a scoring loop). Not a test, a
        module's method or a framework's step. Asked of one scope at a time (its loops only), so that
        a question about another function's model runs asks nothing of this one's."""
        # (a question back into it while computing: not yet shown)
        return self.model.memo.ask(self._by_use, id(scope), False, lambda: (
            type(scope) is cst.FunctionDef
            and not is_test_path(self.model.path)
            and any(type(loop) is cst.For and self.model.loops.feeds_elements(loop) for loop in self._own_loops(scope))
            and self._keeps_outputs_inside(scope)
        ))

    def _own_loops(self, scope: cst.CSTNode) -> list[cst.For | cst.While]:
        """The loops directly in `scope` (not in a function nested in it)."""
        return self._loops_of.get(id(scope), [])

    @cached_property
    def _loops_of(self) -> dict[int, list[cst.For | cst.While]]:
        """Every loop of the file, by the scope it is in (by id)."""
        model = self.model
        found: dict[int, list[cst.For | cst.While]] = {}
        for loop in (*model.tree.by_type.get(cst.For, ()), *model.tree.by_type.get(cst.While, ())):
            found.setdefault(id(model.scope_of(loop)), []).append(loop)
        return found

    def _loops_by_use(self, scope: cst.CSTNode) -> bool:
        """Does a loop of `scope` evaluate by use (`_detached_outputs`, `spends_outputs`)? Asked of one
        scope at a time, like `_evaluating_by_use`."""
        # (a question back into it while computing: not yet shown)
        return self.model.memo.ask(self._used_loops, id(scope), False, lambda: any(
            (type(loop) is cst.For and bool(self._detached_outputs(loop))) or self.spends_outputs(loop)
            for loop in self._own_loops(scope)
        ))

    def _keeps_outputs_inside(self, func: cst.FunctionDef) -> bool:
        """Does `func` (no module's method, no framework step) never differentiate, use the output of
        one of its model runs at least (a loop that only drops them may time the forward), and keep
        every output's history inside?"""
        model = self.model
        loops = model.loops
        if model.provenance.class_kind(func) is not None or loops.per_step_method(func):
            return False  # a module's method runs inside its forward; a framework's step trains
        if loops.trains_each_iteration(func) or loops.has_backward(func) or loops.trains(func):
            return False
        runs = [
            call
            for call in model.tree.descendants(func.body, cst.Call)
            if model.scope_of(call) is func and (model.provenance.is_module_call(call) or model.module_facts.runs_module(call))
        ]
        used = any(type(model.tree.parent_of(c)) is not cst.Expr and not _dropped(model, c) for c in runs)
        return used and self._outputs.stays_inside(func, runs)

    @cached_property
    def _outputs(self) -> OutputFlow:
        """Where this file's model outputs go (`_keeps_outputs_inside`)."""
        return OutputFlow(self.model)

    @cached_property
    def _calling_overrides(self) -> set[int]:
        """Scopes (by id) that call on `self` a method named for evaluation that their class leaves to
        its subclasses (`self.eval_step(batch)`, abstract or not defined here): a template method,
        whose overrides other files define (`overridden_evaluation`)."""
        return {id(self.model.scope_of(call)) for call in self.model.tree.by_type.get(cst.Call, ()) if self._left_to_subclasses(call)}

    @cached_property
    def _held_for_inference(self) -> dict[int, frozenset[str]]:
        """Classes of this file (by id) that hold models for inference only, with those models as
        written (`self.model`): attributes of `self` that the class puts in eval mode (`self.model.eval()`
        in `__init__`, or bound to `load(...).eval()`) and never switches to training, in a class that
        is no module and whose methods train nothing (a predictor, a synthesizer, a server's handler)."""
        model = self.model
        found: dict[int, frozenset[str]] = {}
        kinds = model.provenance.class_kinds()
        for cls in model.tree.by_type.get(cst.ClassDef, ()):
            if cls.name.value in kinds:
                continue  # a module's own models run in its forward: a training step's, or a frozen part of one
            assigned, trained = self._class_assigns(cls)
            held = {
                code(call.func.value)  # type: ignore[attr-defined]
                for call in model.tree.descendants(cls, cst.Call)
                if method_name(call) == "eval" and not call.args and _on_self(call.func.value)  # type: ignore[attr-defined]
            }
            held |= {
                target
                for target, values in assigned.items()
                if target.startswith("self.") and any(_evaluating_module(v) for v in values)
            }
            held -= trained
            if held and not any(model.loops.trains(f) for f in model.tree.descendants(cls, cst.FunctionDef)):
                found[id(cls)] = frozenset(held)
        return found

    @cached_property
    def _inference_methods(self) -> set[int]:
        """Methods (by id, `__init__` aside) of the classes that hold models for inference only."""
        model = self.model
        return {
            id(statement)
            for cls in model.tree.by_type.get(cst.ClassDef, ())
            if id(cls) in self._held_for_inference
            for statement in cls.body.body
            if type(statement) is cst.FunctionDef and statement.name.value != "__init__"
        }

    def _runs_held_for_inference(self, call: cst.Call, scope: cst.CSTNode) -> bool:
        """Does `call`, in a method of a class that holds models for inference only, run one of them
        (`self.model(x)`, `self.model.forward(x)`), where no call of the method in this file is
        differentiated (a loss built on a frozen network wants the graph through its inputs)? The
        method is the region whatever its name: the class never trains what it runs."""
        if id(scope) not in self._inference_methods:
            return False
        model = self.model
        cls = model.enclosing_class(scope)  # type: ignore[arg-type]
        if cls is None or not self._runs_held(call, self._held_for_inference[id(cls)]):
            return False
        # (a call back into it while deciding reads as "its callers' region")
        return self.model.memo.ask(self._held_own, id(scope), False, lambda: self._own_inference_region(scope))  # type: ignore[arg-type]

    def _own_inference_region(self, method: cst.FunctionDef) -> bool:
        """Is a method of a class that holds models for inference only its own region: no call of it
        (nor a call handed it to run, `map_batches(fun=self.forward_batch)`) is in an evaluation
        region of its caller (reported at that call, whose fix covers it) or differentiated?"""
        model = self.model
        name = method.name.value
        handed = [
            call
            for call in model.tree.by_type.get(cst.Call, ())
            if any(type(a.value) is cst.Attribute and a.value.attr.value == name for a in call.args)
            and method in model.calls.passed_callables(call)
        ]
        sites = [*model.call_sites().get(method, ()), *handed]
        return not any(model.model_runs.feeds_backward(site) or self.region(site) is not None for site in sites)

    @cached_property
    def _flag_trained(self) -> dict[int, tuple[str, cst.BaseExpression]]:
        """Functions (by id) that train only when a value says so, with that value's name and the test
        that says so: every call of them that differentiates, steps or zeroes an optimizer is under one
        `if` on a parameter (`if train:`, `if optimizer is not None:`: `def run_epoch(model, loader,
        optimizer, train=True)`, one pass for training and evaluation) or on the variable of a loop over
        phases (`for phase in ["train", "val"]:` ... `if phase == "train":`)."""
        model = self.model
        loops = model.loops
        found: dict[int, tuple[str, cst.BaseExpression]] = {}
        candidates = {id(model.scope_of(call)): model.scope_of(call) for call, _ in model.provenance.backward_calls(model.module)}
        for func in candidates.values():
            if type(func) is not cst.FunctionDef:
                continue
            tests: dict[str, cst.BaseExpression] | None = None
            for call in model.tree.descendants(func.body, cst.Call):
                if model.scope_of(call) is not func or not loops.is_step_call(call):
                    continue  # (zeroing the gradients trains nothing: it may run in every pass)
                guards = {}
                for a in model.tree.ancestors(call):
                    if type(a) is cst.If and model.tree.contains(a.body, call) and model.tree.contains(func, a):
                        name = self._guard_name(a.test, func)
                        if name is not None:
                            guards[name] = a.test
                tests = guards if tests is None else {n: t for n, t in tests.items() if n in guards}
                if not tests:
                    break
            if tests and len(tests) == 1:
                found[id(func)] = next(iter(tests.items()))
        return found

    def _guard_name(self, test: cst.BaseExpression, func: cst.FunctionDef) -> str | None:
        """The parameter of `func`, or the variable of a loop over literal phases in it, that `test`
        asks (`train`, `optimizer is not None`, `phase == "train"`); None for any other test."""
        if type(test) is cst.Name and test.value in self.model.params(func):
            return test.value
        if type(test) is not cst.Comparison or len(test.comparisons) != 1 or type(test.left) is not cst.Name:
            return None
        name, comparison = test.left.value, test.comparisons[0]
        if type(comparison.operator) is cst.IsNot and code(comparison.comparator) == "None":
            return name if name in self.model.params(func) else None
        if type(comparison.operator) is cst.Equal and type(comparison.comparator) is cst.SimpleString:
            return name if self._phases(name, func) else None
        return None

    def _phases(self, name: str, func: cst.FunctionDef) -> list[cst.SimpleString]:
        """The literal strings a loop of `func` over a literal list binds `name` to (`for phase in
        ["train", "val"]:`); [] where it is bound otherwise."""
        bindings = self.model.bindings(func, name)
        if len(bindings) != 1 or type(bindings[0].node) is not cst.For:
            return []
        loop = bindings[0].node
        if type(loop.target) is not cst.Name or type(loop.iter) not in (cst.List, cst.Tuple):
            return []
        values = [e.value for e in loop.iter.elements]
        return values if all(type(v) is cst.SimpleString for v in values) else []

    def flagged_evaluation(self, func: cst.FunctionDef) -> tuple[str, cst.CSTNode] | None:
        """For a function that trains only when a value says so (`_flag_trained`): that value's test,
        as written, and where it is false while grad is on: a call of this file whose result nothing
        differentiates that hands the parameter a false literal or leaves it a false default
        (`run_epoch(model, val_loader, train=False)`), or the loop over phases binding another phase.
        There the function runs its models for evaluation, with grad on."""
        found = self._flag_trained.get(id(func))
        if found is None:
            return None
        name, test = found
        model = self.model
        phases = self._phases(name, func)
        if phases:
            loop = model.bindings(func, name)[0].node
            others = [p for p in phases if p.value != test.comparisons[0].comparator.value]  # type: ignore[attr-defined]
            return (code(test), loop) if others and model.grad_state(loop) is Grad.ON else None
        falsy = ("None",) if type(test) is cst.Comparison else ("False", "None", "0")
        default = next(
            (p.default for p in (*func.params.params, *func.params.kwonly_params) if p.name.value == name), None
        )
        for site in model.call_sites().get(func, ()):
            if model.grad_state(site) is not Grad.ON or model.model_runs.feeds_backward(site):
                continue
            value = model.summaries.argument_for(site, func, name) or default
            if value is not None and code(value) in falsy:
                return code(test), site
        return None

    def _evaluating_pass(self, call: cst.Call, func: cst.FunctionDef) -> bool:
        """Does `call` run in a function that runs its models for evaluation with grad on where a value
        says not to train (`flagged_evaluation`), outside the branch that trains?"""
        found = self.flagged_evaluation(func)
        if found is None:
            return False
        test = self._flag_trained[id(func)][1]
        tree = self.model.tree
        if any(type(a) is cst.If and a.test is test and tree.contains(a.body, call) for a in tree.ancestors(call)):
            return False
        # a loop over phases: only what runs inside it runs once per phase
        return type(found[1]) is not cst.For or tree.contains(found[1], call)

    def _runs_held(self, call: cst.Call, held: frozenset[str], seen: frozenset[int] = frozenset()) -> bool:
        """Does `call` run one of the models `held` (`self.model(x)`, `self.model.forward(x)`), itself or
        through the methods of its class it calls (`self.score(batch)`, whose body runs `self.model`)?"""
        model = self.model
        func = call.func
        receivers = {code(func)} | ({code(func.value)} if type(func) is cst.Attribute else set())
        if receivers & held:
            return True
        return any(
            self._runs_held(inner, held, seen | {id(callee)})
            for callee in model.running_callees(call)
            if id(callee) in self._inference_methods and id(callee) not in seen
            for inner in model.tree.descendants(callee.body, cst.Call)
            if model.scope_of(inner) is callee and model.grad_state(inner) is not Grad.OFF
        )

    def _left_to_subclasses(self, call: cst.Call) -> cst.ClassDef | None:
        """`left_to_subclasses` of a method named for evaluation."""
        func = call.func
        if type(func) is not cst.Attribute or not named_for_evaluation(func.attr.value):
            return None
        return self.left_to_subclasses(call)

    def left_to_subclasses(self, call: cst.Call) -> cst.ClassDef | None:
        """The top-level class whose method calls `self.<name>(...)`, a method that the class leaves to its
        subclasses (it does not define it, or only raises `NotImplementedError`); None for any other call."""
        func = call.func
        if type(func) is not cst.Attribute or type(func.value) is not cst.Name or func.value.value != "self":
            return None
        model = self.model
        scope = model.scope_of(call)
        cls = model.enclosing_class(scope) if isinstance(scope, cst.FunctionDef) else None
        if cls is None or model.tree.parent_of(cls) is not model.module:
            return None
        own = [s for s in cls.body.body if type(s) is cst.FunctionDef and s.name.value == func.attr.value]
        return cls if all(_abstract(f) for f in own) else None

    def overridden_evaluation(self, call: cst.Call) -> str:
        """`self.eval_step(batch)`, with grad on and outside training, in a class that leaves the method
        to its subclasses, where a subclass in another file of the project overrides it with a method
        that runs a model with grad on and never differentiates: that run in words; "" otherwise. A
        method named for evaluation makes the call the region a `no_grad` fix wraps once for every
        subclass; one of any other name runs a model where the call is in an evaluation region of its
        own (`self.forward_batch(batch)` in a loop after `self.model.eval()`)."""
        cls = self.left_to_subclasses(call)
        if cls is None:
            return ""
        model = self.model
        if model.grad_state(call) is not Grad.ON or self._in_training(call):
            return ""
        run = model.project.evaluation_in_overrides(cls.name.value, call.func.attr.value)  # type: ignore[attr-defined]
        return f"a subclass's `{call.func.attr.value}` runs {run}" if run else ""  # type: ignore[attr-defined]

    def evaluated_by_callers(self, func: cst.FunctionDef) -> bool:
        """Evaluation context from the call sites: a function, whatever its name, that runs modules it
        is handed and never differentiates, whose every call in this file hands it those modules in
        eval mode with grad on, outside any training step (`emb = embed(frames, detector, resnet)`
        after `resnet = InceptionResnetV1(...).eval()`), or is in an evaluation region of its own
        (reported there), and that no other file calls with grad on. Its callers' grad mode is its
        own, so the function is the region the fix decorates."""
        return bool(self.handed_eval_modules(func))

    def handed_eval_modules(self, func: cst.FunctionDef) -> frozenset[str]:
        """The parameters of `func` that it runs and that every caller hands a module in eval mode,
        when `func` is evaluated by its callers (`evaluated_by_callers`); empty otherwise."""
        # (a call back into it while computing reads as "none")
        return self.model.memo.ask(self._by_callers, id(func), frozenset(), lambda: self._compute_by_callers(func))

    def _compute_by_callers(self, func: cst.FunctionDef) -> frozenset[str]:
        model = self.model
        loops = model.loops
        sites = model.call_sites().get(func, ())
        # other files' calls with grad on: each hands it modules in eval mode only, outside training
        # (then they evaluate, as the calls of this file below must), or some may train through it
        elsewhere = model.grad.called_with_grad_elsewhere(func)
        if elsewhere and not model.grad.evaluated_elsewhere(func):
            return frozenset()
        if not (sites or elsewhere) or model.grad.entry_state(func) is Grad.OFF:
            return frozenset()
        if loops.is_module_forward(func) or loops.per_step_method(func) or loops.trains(func) or loops.has_backward(func):
            return frozenset()
        params = model.params(func)
        # the parameters it calls with grad on (`resnet(x)`): modules where the callers hand it modules
        run = sorted({
            c.func.value
            for c in model.tree.descendants(func.body, cst.Call)
            if type(c.func) is cst.Name
            and c.func.value in params
            and model.scope_of(c) is func
            and model.grad_state(c) is not Grad.OFF
        })
        if not run:
            return frozenset()
        evaluating = elsewhere
        for site in sites:
            if model.grad_state(site) is Grad.OFF:
                continue  # run without grad there: no graph, and no training either
            if self._in_training(site):
                return frozenset()
            if self.region(site) is not None:
                continue  # in an evaluation region of the caller's: reported there, its fix covers this call
            handed = [model.summaries.argument_for(site, func, param) for param in run]
            if any(h is None or not self._in_eval_mode(h, site) for h in handed):
                return frozenset()
            evaluating = True
        return frozenset(run) if evaluating else frozenset()

    def called_in_training(self, func: cst.FunctionDef) -> bool:
        """Is every call of `func` in this file (there is one) part of a training step (`_in_training`):
        a helper of the step (`seqs, ref_logits = self.make_experience(batch)` in `train_step`, whose
        loss is backwarded), which runs under the step's grad and feeds its backward?"""
        sites = self.model.call_sites().get(func, ())
        return bool(sites) and all(self._in_training(site) for site in sites)

    def _in_training(self, site: cst.Call) -> bool:
        """Is the call `site` part of a training step: its result is backwarded, or its function or a
        loop around it trains, or it is in a module's `forward` or a framework's per-step method?"""
        model = self.model
        loops = model.loops
        scope = model.scope_of(site)
        if model.model_runs.feeds_backward(site) or loops.trains_each_iteration(scope):
            return True
        if isinstance(scope, cst.FunctionDef) and (loops.per_step_method(scope) or loops.is_module_forward(scope)):
            return True
        return any(loops.trains_each_iteration(loop) for loop in model.enclosing_loops(site))

    def evaluating_call(self, call: cst.Call) -> bool:
        """Does `call` (of a function of another file, with grad on) evaluate: it hands modules, each
        in eval mode (`self.resnet`, bound only to `InceptionResnetV1(...).eval()` in `__init__`), and
        no other module, outside any training step? Whatever the callee runs of them runs in eval mode
        with a graph nothing wants."""
        model = self.model
        handed = [a.value for a in call.args if not a.star]
        if not any(
            _evaluating_module(v) or (type(v) in (cst.Name, cst.Attribute) and code(v) in self._switched_to_eval)
            for v in handed
        ):
            return False  # (asked of every imported call: what the file never puts in eval mode is no such module)
        modules = [v for v in handed if self._in_eval_mode(v, call)]
        if not modules or self._in_training(call):
            return False
        return all(v in modules or not model.module_facts.is_module(v, call) for v in handed)

    def runs_handed_module(self, call: cst.Call) -> bool:
        """Does `call` run a module that its function's every caller hands it in eval mode?"""
        scope = self.model.scope_of(call)
        return (
            type(call.func) is cst.Name
            and isinstance(scope, cst.FunctionDef)
            and call.func.value in self.model.params(scope)
            and call.func.value in self.handed_eval_modules(scope)
        )

    def _in_eval_mode(self, expr: cst.BaseExpression, at: cst.Call) -> bool:
        """Is the module `expr` (a name, `self.net`) put in eval mode before `at`, with no switch back
        to training in between: `.eval()` on it in the same scope, or a name bound to `Net(...).eval()`?"""
        model = self.model
        if _evaluating_module(expr):
            return True  # `embed(frames, Net().eval())`
        if type(expr) not in (cst.Name, cst.Attribute):
            return False
        scope = model.scope_of(at)
        written = code(expr)
        tree = model.tree
        position = tree.order[id(at)]
        state = None
        for call in tree.descendants(scope, cst.Call):
            if tree.order[id(call)] >= position:
                break
            if model.scope_of(call) is not scope or type(call.func) is not cst.Attribute:
                continue
            if code(call.func.value) != written:
                continue
            if call.func.attr.value == "eval" and not call.args:
                state = True
            elif call.func.attr.value == "train":
                state = bool(call.args) and code(call.args[0].value) == "False"
        if state is not None:
            return state
        if type(expr) is not cst.Name:
            return self.kept_in_eval_mode(expr, at)
        bindings = model.provenance.reaching_bindings(scope, expr.value, at)
        return bool(bindings) and all(
            type(b.value) is cst.Call and method_name(b.value) == "eval" and not b.value.args for b in bindings
        )

    @cached_property
    def _switched_to_eval(self) -> set[str]:
        """What the file puts in eval mode, as written: receivers of `.eval()`, and targets bound to
        the result of one (`self.resnet = InceptionResnetV1(...).eval()`)."""
        model = self.model
        found = {
            code(call.func.value)  # type: ignore[attr-defined]
            for call in model.tree.by_type.get(cst.Call, ())
            if method_name(call) == "eval" and not call.args
        }
        for assign in model.tree.by_type.get(cst.Assign, ()):
            if _evaluating_module(assign.value):
                found.update(code(target.target) for target in assign.targets)
        return found

    def kept_in_eval_mode(self, expr: cst.BaseExpression, at: cst.Call) -> bool:
        """Is `expr` an attribute of `self` that its class binds only to modules switched to eval mode
        (`self.resnet = InceptionResnetV1(...).eval()`) or to itself placed (`self.resnet.to(device)`,
        `.half()`), and never switches back to training?"""
        model = self.model
        if type(expr) is not cst.Attribute or type(expr.value) is not cst.Name or expr.value.value != "self":
            return False
        scope = model.scope_of(at)
        cls = model.enclosing_class(scope) if isinstance(scope, cst.FunctionDef) else None
        if cls is None:
            return False
        written = code(expr)
        assigned, trained = self._class_assigns(cls)
        bound = assigned.get(written)
        if not bound:
            return False
        for value in bound:
            if _evaluating_module(value):
                continue
            while type(value) is cst.Call and method_name(value) in MODULE_PLACEMENT:
                value = value.func.value  # type: ignore[attr-defined]
            if code(value) != written:
                return False  # (what is placed or cast where it is keeps its mode)
        return written not in trained

    def _class_assigns(self, cls: cst.ClassDef) -> tuple[dict[str, list[cst.BaseExpression]], set[str]]:
        """The values `cls` assigns, by each target as written (an assignment once per target it
        names), and what its `.train(...)` calls switch, as written: asked for every `self.<attr>`
        handed to a call, once per class (a scan of the class per argument was a fiftieth of a run)."""
        found = self._self_assigns.get(id(cls))
        if found is None:
            assigned: dict[str, list[cst.BaseExpression]] = {}
            for assign in self.model.tree.descendants(cls, cst.Assign):
                for target in dict.fromkeys(code(target.target) for target in assign.targets):
                    assigned.setdefault(target, []).append(assign.value)
            trained = {
                code(call.func.value)  # type: ignore[attr-defined]
                for call in self.model.tree.descendants(cls, cst.Call)
                if method_name(call) == "train"
            }
            found = self._self_assigns[id(cls)] = (assigned, trained)
        return found

    @cached_property
    def _evaluating_scopes(self) -> set[int]:
        """Scopes (by id) that switch a model's mode or loop over evaluation data themselves."""
        model = self.model
        found = {
            id(model.scope_of(call))
            for call in model.tree.by_type.get(cst.Call, ())
            if method_name(call) in ("eval", "train")
        }
        # (functions that end a value's history, `.detach()`, `.item()`, `int(...)`: maybe a model
        # output's, `_detached_at_once`)
        found |= {
            id(model.scope_of(node))
            for node in model.tree.by_type.get(cst.Attribute, ())
            if node.attr.value in _ENDING
        }
        found |= {
            id(model.scope_of(call))
            for call in model.tree.by_type.get(cst.Call, ())
            if type(call.func) is cst.Name and call.func.value in _NUMBERS
        }
        found |= {id(model.scope_of(loop)) for loop in model.tree.by_type.get(cst.For, ()) if model.loops.iterates_eval_data(loop)}
        return found  # (and scopes with loops that evaluate by use: `_loops_by_use`, asked per scope)

    def _detached_outputs(self, loop: cst.For) -> list[cst.Name]:
        """Evaluation recognised by use: a loop over batches that binds a model's outputs and reads
        them only through `.detach()` (or `.data`), so no graph it records is ever wanted, in a
        function that never differentiates. The names of those outputs; [] for any other loop."""
        model = self.model
        if not model.loops.iterates_batches(loop) and not model.loops.feeds_elements(loop):
            return []
        tree = model.tree
        outputs: dict[str, list[cst.Name]] = {}
        bound: set[int] = set()  # the output names where they are bound (not reads)
        for assign in tree.descendants(loop.body, cst.Assign):
            if type(assign.value) is not cst.Call:
                continue
            if not model.provenance.is_module_call(assign.value) and not self.runs_through(assign.value):
                continue
            for target in assign.targets:
                for name in tree.descendants(target.target, cst.Name):
                    outputs.setdefault(name.value, []).append(name)
                    bound.add(id(name))
        if not outputs:
            return []
        reads = [
            n for n in tree.descendants(loop.body, cst.Name) if n.value in outputs and id(n) not in bound
        ]
        for read in reads:
            parent = tree.parent_of(read)
            if type(parent) is not cst.Attribute or parent.value is not read or parent.attr.value not in ("detach", "data"):
                return []
        scope = model.scope_of(loop)
        if not reads or model.loops.trains_each_iteration(scope) or model.loops.trains_each_iteration(loop):
            return []
        return reads

    def _detached_at_once(self, call: cst.Call, scope: cst.CSTNode) -> bool:
        """Inference recognised by use, outside any loop: a function that never differentiates runs
        a model and ends its output's history before it goes anywhere else
        (`self.cnn(frames).data.cpu().numpy()`; `out = model(x)` whose every read is
        `out[0].permute(1, 2, 0).detach()`; `data = out.hidden_states[-1][0]`, then
        `torch.mean(data, dim=0).tolist()`): the graph the forward records is never wanted. Not a
        module's `forward` nor a framework's step, where a detached output is a stop-gradient
        inside training (a target network, a teacher)."""
        model = self.model
        loops = model.loops
        if not isinstance(scope, cst.FunctionDef) or model.enclosing_loops(call) or is_test_path(model.path):
            return False  # (a test runs a model once, to check it)
        if loops.is_module_forward(scope) or loops.per_step_method(scope) or loops.trains_each_iteration(scope):
            return False
        if isinstance(call.func, cst.Name) and call.func.value in model.params(scope):
            return False  # a helper run once with the model it is handed: its caller chose the grad mode
        return model.model_runs.runs_module(call) and self._detaches(call, scope, frozenset())

    def _detaches(
        self, expr: cst.BaseExpression, scope: cst.FunctionDef | cst.Module, seen: frozenset[str], loop: cst.CSTNode | None = None
    ) -> bool:
        """Does the value of `expr` reach the end of its history (`.detach()`, `.data`, `.item()`,
        `.tolist()`, `int(...)`) through its parts, fields, the tensor methods and torch functions
        that pass history on, and names bound to it in `scope` (every read of them), and go nowhere
        else first? With a `loop` (`spends_outputs`): or become metadata, integers or booleans, or go into
        a model call of the loop (a criterion, the next step's input, the cache), through arithmetic
        and unpacking too."""
        tree = self.model.tree
        node: cst.CSTNode = expr
        while True:
            parent = tree.parent_of(node)
            kind = type(parent)
            if kind is cst.Subscript and parent.value is node:
                node = parent
            elif kind is cst.Attribute and parent.value is node:
                attr = parent.attr.value
                outer = tree.parent_of(parent)
                called = type(outer) is cst.Call and outer.func is parent
                if attr in _ENDING:
                    return called or attr == "data"
                if loop is not None and (attr in _METADATA if not called else attr in _INTEGRAL):
                    return True
                if called and attr not in _PASSING:
                    return False
                node = outer if called else parent  # a tensor method's result, or a field (`out.logits`)
            elif kind is cst.Arg and not parent.star and (parent.keyword is None or loop is not None):
                outer = tree.parent_of(parent)
                if loop is not None and self._fed_back(outer, loop):  # type: ignore[arg-type]
                    return True
                if parent.keyword is not None:
                    return False
                name = self.model.imports.resolve(outer.func) or ""  # type: ignore[union-attr]
                if name in _NUMBERS and len(outer.args) == 1:  # type: ignore[union-attr]
                    return True
                if loop is not None and name.startswith("torch.") and name.rpartition(".")[2] in _INTEGRAL:
                    return True
                if not self._passes_history(name):
                    return False
                node = outer  # type: ignore[assignment]
            elif loop is not None and kind is cst.BinaryOperation:
                node = parent  # `logits / temperature`
            elif loop is not None and kind is cst.Comparison:
                return True  # `token == eos_id`: a bool tensor, no history
            elif kind is cst.Assign and parent.value is node and len(parent.targets) == 1:
                target = parent.targets[0].target
                names = [target] if type(target) is cst.Name else []
                if loop is not None and type(target) in (cst.Tuple, cst.List):
                    names = [e.value for e in target.elements]  # type: ignore[attr-defined]
                if loop is not None and type(parent.value) is cst.BinaryOperation and any(
                    type(n) is cst.Name and n.value in seen for n in names
                ):
                    return False  # `total = total + loss`: kept across iterations with its graph (ML001's)
                return (
                    bool(names)
                    and all(type(n) is cst.Name for n in names)
                    and all(self._reads_end_history(n.value, scope, seen, loop) for n in names)  # type: ignore[attr-defined]
                )
            else:
                return False

    def _fed_back(self, call: cst.CSTNode, loop: cst.CSTNode) -> bool:
        """Is `call` a model run inside `loop` (what it is handed there is the next step's input)?"""
        return (
            type(call) is cst.Call
            and self.model.tree.contains(loop, call)
            and self.model.provenance.is_module_call(call)
        )

    def _reads_end_history(
        self, name: str, scope: cst.FunctionDef | cst.Module, seen: frozenset[str], loop: cst.CSTNode | None = None
    ) -> bool:
        """Does every read of `name` in `scope` end its history (`_detaches`)? A few names deep."""
        if name == "_":
            return True  # unpacked and dropped
        if name in seen:
            return loop is not None  # (in a loop's outputs: its reads are being followed already)
        if len(seen) >= (_FLOW_DEPTH if loop is None else _DECODING_DEPTH):
            return False
        tree = self.model.tree
        reads = [n for n in tree.descendants(scope, cst.Name) if n.value == name and is_read(self.model, n)]
        return bool(reads) and all(
            self.model.scope_of(n) is scope and self._detaches(n, scope, seen | {name}, loop) for n in reads
        )

    def spends_outputs(self, loop: cst.CSTNode) -> bool:
        """Evaluation recognised by use: a loop over batches, or one that decodes (each step runs a
        model on what the steps before it produced: the sampled token, the cache), in a function
        (or a script's top level) that never differentiates, where every output of every model run ends its history
        (`.item()`, `.detach()`, an `int` token, `.argmax()`, its shape, a comparison) or goes into
        another model run of the loop (a criterion, the next step). No graph a step records is ever
        wanted (and a carried cache chains each step's graph to the last)."""
        # (a question back into it while computing: not yet shown)
        return self.model.memo.ask(self._spent, id(loop), False, lambda: self._compute_spent(loop))

    def _compute_spent(self, loop: cst.CSTNode) -> bool:
        model = self.model
        loops = model.loops
        scope = model.scope_of(loop)
        if not isinstance(loop, (cst.For, cst.While)):
            return False
        if isinstance(scope, cst.Module):
            if is_test_path(model.path):
                return False  # a script's loop, where the script trains nothing anywhere; a test's checks a model
        elif not isinstance(scope, cst.FunctionDef) or loops.is_module_forward(scope) or loops.per_step_method(scope):
            return False
        if loops.trains_each_iteration(scope):
            return False
        if loops.has_backward(scope) or not (loops.iterates_batches(loop) or loops.decodes(loop) or loops.feeds_elements(loop)):
            return False
        runs = [
            c
            for c in model.tree.descendants(loop.body, cst.Call)
            if model.scope_of(c) is scope and (model.provenance.is_module_call(c) or self.runs_through(c))
        ]
        # (a loop whose every output is dropped, `_ = model(x)` to time it, shows no use of them)
        used = any(not _dropped(model, c) for c in runs)
        return used and all(self._detaches(c, scope, frozenset(), loop) for c in runs)

    @staticmethod
    def _passes_history(function: str) -> bool:
        """A torch function whose result carries its tensor arguments' history (`torch.mean`,
        `torch.cat`, `torch.nn.functional.softmax`)."""
        module, _, name = function.rpartition(".")
        return (module == "torch" and name in _PASSING) or function in CONCATENATIONS or module == "torch.nn.functional"

    def _eval_loop(self, loop: cst.CSTNode) -> bool:
        """A loop over evaluation data, or after `model.eval()`, that does not train (an epoch loop
        that trains, then evaluates in a loop of its own, is not one)."""
        loops = self.model.loops
        return self.model.memo.ask(self._loops, id(loop), False, lambda: not loops.trains_each_iteration(loop) and (
            loops.iterates_eval_data(loop)
            or loops.follows_model_eval(loop)
            or type(loop) is cst.For and bool(self._detached_outputs(loop))
            or self.spends_outputs(loop)
        ))

    def _top_level_statement(self, node: cst.CSTNode) -> cst.CSTNode:
        """The line of a script's top level (or of its `if __name__ == "__main__":`) holding `node`."""
        statement = self.model.tree.statement_of(node)
        line = self.model.tree.parent_of(statement)
        return line if isinstance(line, cst.SimpleStatementLine) else statement

    def _inference_after_eval(self, call: cst.Call, scope: cst.CSTNode) -> bool:
        """A function that puts the very model it calls in eval mode, then runs it outside any loop,
        and never differentiates nor steps: straight-line inference (an inference script's `main`)."""
        model = self.model
        loops = model.loops
        if model.enclosing_loops(call):
            return False
        if isinstance(scope, cst.Module):
            # a script's top level, where what is kept lives as long as the script (or the notebook's
            # kernel); anything of the file that differentiates or steps makes it training code, and a
            # test file checks an export
            if loops.trains_each_iteration(scope) or is_test_path(model.path):
                return False
            if not isinstance(model.tree.statement_of(call), (cst.Assign, cst.AnnAssign)):
                return False  # run once and dropped (`print(model(x).shape)`): its graph goes with it
        elif not isinstance(scope, cst.FunctionDef):
            return False
        elif loops.is_module_forward(scope) or loops.per_step_method(scope) or loops.trains_each_iteration(scope):
            return False
        elif loops.is_test_function(scope):
            return False  # a test runs the model once to check an export, not to serve it
        evaluated = self._eval_receivers(scope)
        if not evaluated:
            return False
        func = call.func
        # `model(x)`, `self.model(x)` or a method of it, `model.forward_local(x)`
        receivers = {code(func)} | ({code(func.value)} if isinstance(func, cst.Attribute) else set())
        if not receivers & evaluated:
            return False
        position = model.tree.order[id(call)]
        in_eval = False
        for other in model.tree.descendants(scope, cst.Call):
            if model.tree.order[id(other)] >= position:
                break
            if model.scope_of(other) is not scope:
                continue
            if isinstance(other.func, cst.Attribute) and code(other.func.value) in receivers:
                if other.func.attr.value == "eval" and not other.args:
                    in_eval = True
                elif other.func.attr.value == "train":
                    in_eval = False
        return in_eval

    def _eval_receivers(self, scope: cst.CSTNode) -> set[str]:
        """What `scope` itself calls `.eval()` on (`model`, `self.net`)."""
        key = id(scope)
        if key not in self._evaluated:
            model = self.model
            self._evaluated[key] = {
                code(c.func.value)
                for c in model.tree.descendants(scope, cst.Call)
                if method_name(c) == "eval" and not c.args and model.scope_of(c) is scope
            }
        return self._evaluated[key]

    def model_run_by_callee(self, call: cst.Call) -> str:
        """Where a function of this file that `call` runs calls, with grad on, a model (directly or
        through its own callees, by their summaries), when that function is not an evaluation
        region of its own (reported there)."""
        model = self.model
        for callee in model.running_callees(call):
            chain = model.model_runs.model_run(callee)
            if chain is None or any(self.own_region(step) for step in chain) or self._hands_a_class(call, callee, chain):
                continue
            run = chain[-1]
            owner = model.scope_of(run)
            name = model.summaries.name(owner) if isinstance(owner, cst.FunctionDef) else model.summaries.name(callee)
            return f"`{name}` calls {model.summaries.describe(run)}"
        return self.method_run(call)

    def runs_through(self, call: cst.Call) -> bool:
        """Does `call` run a model, with its caller's grad mode and without training it, through the
        project's own code: a function of this file (`model_run`), a method of an object of a class of
        the project (`net.score(x)`, `predictor.apply(x)`: `object_runs`, inherited from a base in
        another file too), or a function of another file that runs the model it is handed
        (`handed_runs`)? Evaluation recognised by use counts these runs as the loop's own."""
        model = self.model
        # (a question back into it while computing reads as "runs none")
        return model.memo.ask(self._through, id(call), (call, False), lambda: (call, (
            any(model.model_runs.model_run(callee) is not None for callee in model.running_callees(call))
            or bool(self.method_run(call))
            or bool(model.model_runs.handed_runs(call))
        )))[1]

    def method_run(self, call: cst.Call) -> str:
        """Where `call` calls a method of an object of a module class that this file or another file of
        the project defines (`model.infer(x)` after `model = Net()`, or of a parameter annotated `net:
        Net`), and that method runs a model with grad on (`ModelRuns.object_runs`, here or in the
        class's facts), that run in words; else ""."""
        func = call.func
        if type(func) is not cst.Attribute:
            return ""
        return self.model.memo.ask(self._method_runs, id(call), (call, ""), lambda: (call, self._method_run(func.value, func.attr.value, call)))[1]

    def _method_run(self, receiver: cst.BaseExpression, name: str, call: cst.Call) -> str:
        model = self.model
        provenance = model.provenance
        if provenance.built_with_gradient_takers(receiver, call):
            return ""  # (a renderer handed an SDF network that takes its own gradient: it may differentiate)
        annotated = provenance.annotated_class(receiver, call)
        cls = model.calls.classes.get(provenance.own_class_instance(receiver, call) or annotated or "")
        if cls is not None:
            return model.model_runs.object_runs(cls).get(name, "")
        made = provenance.project_instance(receiver, call)
        if made is not None:
            facts = model.project.constructed(made)
        elif annotated:
            facts = model.project.class_named(cst.parse_expression(annotated))
        else:
            return ""
        return ((facts or {}).get("object_runs") or {}).get(name, "")

    def _hands_a_class(self, call: cst.Call, callee: cst.FunctionDef, chain: tuple[cst.Call, ...]) -> bool:
        """Does the callee's run call a parameter that `call` hands a class, or a `functools.partial` of
        one (dinov2's `create_module_dict(module=partial(KnnModule, ...))`: `module(...)` constructs)?
        Whatever the parameter is named, calling it builds an object and runs no model."""
        run = chain[0]
        if len(chain) != 1 or type(run.func) is not cst.Name or run.func.value not in self.model.params(callee):
            return False
        handed = self.model.summaries.argument_for(call, callee, run.func.value)
        return handed is not None and self._names_a_class(handed, call, 0)

    def _names_a_class(self, expr: cst.BaseExpression, at: cst.CSTNode, depth: int) -> bool:
        """Is `expr` a class (of this file, or of another file of the project), or a `functools.partial` of one?"""
        model = self.model
        if type(expr) is cst.Call:
            if (model.imports.resolve(expr.func) or "") != "functools.partial" or not expr.args:
                return False
            return self._names_a_class(expr.args[0].value, at, depth + 1)
        if type(expr) is not cst.Name or depth > 3:
            return False
        scope = model.scope_of(at)
        bindings = model.provenance.reaching_bindings(scope, expr.value, at)
        if bindings:
            return all(b.value is not None and self._names_a_class(b.value, b.node, depth + 1) for b in bindings)
        if isinstance(scope, cst.FunctionDef) and expr.value in model.params(scope):
            return False
        return expr.value in model.calls.classes or model.project.class_named(expr) is not None

    def describe(self, region: cst.CSTNode) -> tuple[str, str]:
        """The region in words, and its fix in words, for a message."""
        if isinstance(region, cst.FunctionDef):
            name = region.name.value
            evaluating = self.flagged_evaluation(region) if id(region) in self._flag_trained else None
            if evaluating is not None:
                test, where = evaluating
                line = self.model.range_of(where).start.line
                how = "its loop on line" if type(where) is cst.For else "its call on line"
                return (
                    f"`{name}` where `{test}` is false ({how} {line})",
                    f"run the forward under `torch.set_grad_enabled({test})`",
                )
            where = f"evaluation function `{name}`"
            if not self.model.loops.is_eval_function(region) and self.evaluated_by_callers(region):
                where = f"`{name}`, whose callers hand it models in eval mode"
            elif not self.model.loops.is_eval_function(region) and id(region) in self._inference_methods:
                where = f"`{name}`, whose class holds its models in eval mode only"
            elif not self.model.loops.is_eval_function(region) and self._evaluating_by_use(region):
                where = f"`{name}`, whose model outputs never leave it"
            elif not self.model.loops.is_eval_function(region) and self.engine_evaluation(region):
                where = f"ignite `Engine` step `{name}`"
            return where, f"decorate `{name}` with `@torch.no_grad()`"
        if isinstance(region, (cst.For, cst.While)):
            return "this evaluation loop", "wrap the loop in `with torch.no_grad():`"
        if isinstance(self.model.scope_of(region), cst.FunctionDef):
            return "this inference statement", "wrap the statement in `with torch.no_grad():`"
        return "this inference script", "wrap the statement in `with torch.no_grad():`"

    def own_region(self, call: cst.Call) -> bool:
        """Is `call` in an evaluation region inside its own function (reported there, and its fix
        there covers every caller)?"""
        region = self.region(call)
        return region is not None and self.model.tree.contains(self.model.scope_of(call), region)

    def _part_of_callers(self, func: cst.FunctionDef, call: cst.Call) -> bool:
        """Named like evaluation, but the call graph says it runs as part of its callers: every
        call of it in this file is in a module's `forward` (torchrl's `_predict`), or a training
        step of this file differentiates what it returns (skorch's `infer`, called by `train_step`
        and `validation_step`), also after its callers return it (`trained_through`), or it is a helper with no loop of its own that runs a model it
        is handed and does not switch it to eval mode (monai's `_run_inference(network, patch)`):
        the grad mode is whichever its caller, evaluating or training, chose; an evaluation
        caller is reported at its call. (A validation run from inside the training loop is still
        evaluation.)"""
        model = self.model
        sites = model.call_sites().get(func, ())
        if self.trained_through(func):
            return True
        if sites:
            # (or every call is under no_grad: pyro's shared forward pass `model_eval`)
            return (
                all(self._in_forward(site) or model.grad_state(site) is Grad.OFF for site in sites)
                and not model.grad.called_with_grad_elsewhere(func)
            )
        if model.tree.descendants(func.body, cst.For) or model.tree.descendants(func.body, cst.While):
            return False
        if any(isinstance(a, _COMPREHENSIONS) for a in model.tree.ancestors(call) if model.tree.contains(func, a)):
            return False  # `[model(img) for img in batch]`: it loops over the data itself
        runs_param = (isinstance(call.func, cst.Name) and call.func.value in model.params(func)) or self._handed_to_init(
            call.func, func
        )
        sets_eval = any(method_name(c) == "eval" for c in model.tree.descendants(func.body, cst.Call))
        return runs_param and not sets_eval

    def trained_through(self, func: cst.FunctionDef) -> bool:
        """Does a training step differentiate what `func` returns: of this file, at a call of it by its
        name (`_differentiated_by_name`), or at a call of it or after the functions that make the call
        return its value (`_differentiated_by_callers`); or of another file of the project, by its
        summary (`trained_calls`)? Named like evaluation, it is training code."""
        name = self.model.exported_name(func)
        return self.model.memo.ask(self._trained, id(func), False, lambda: (
            self._differentiated_by_name(func)
            or any(self.differentiated_at(site) for site in [*self.model.call_sites().get(func, ()), *self._handed_sites(func)])
            or (name is not None and self.model.project.trained_elsewhere(name))
        ))

    def _handed_sites(self, func: cst.FunctionDef) -> list[cst.Call]:
        """The calls of `func` through a parameter: a call of this file hands it, by its name, to a
        function of this file (`train(loader, model, predict)`), whose own body calls that parameter
        (`pred = predict(fake)`)."""
        model = self.model
        sites = []
        for arg in model.tree.by_type.get(cst.Arg, ()):
            value = arg.value
            if type(value) is not cst.Name or value.value != func.name.value:
                continue
            call = model.tree.parent_of(arg)
            if type(call) is not cst.Call or func not in model.functions_named(value, call):
                continue
            for callee in model.local_callees(call):
                params = [p for p in parameter_names(callee) if argument_for(call, callee, p) is value]
                sites += [
                    c
                    for c in model.tree.descendants(callee.body, cst.Call)
                    if type(c.func) is cst.Name and c.func.value in params and model.scope_of(c) is callee
                ]
        return sites

    def differentiated_at(self, site: cst.Call) -> bool:
        """Does a training step of this file differentiate what the call `site` returns (`_differentiated_by_callers`)?"""
        return self._differentiated_by_callers(site, frozenset())

    def _differentiated_by_callers(self, site: cst.Call, seen: frozenset[int]) -> bool:
        """Does a training step of this file differentiate what the call `site` returns: in the site's
        own function, or after that function returns it to a call whose result is differentiated, and
        so on up (`outputs.update(self.predict_poses(x))` and `return outputs, losses` in
        `process_batch`, whose caller backwards `losses["loss"]`)?"""
        model = self.model
        if model.model_runs.feeds_backward(site) or self._fills_trained_argument(site):
            return True
        scope = model.scope_of(site)
        if type(scope) is not cst.FunctionDef or id(scope) in seen or not self._returned_from(site, scope):
            return False
        return any(self._differentiated_by_callers(s, seen | {id(scope)}) for s in model.call_sites().get(scope, ()))

    def _fills_trained_argument(self, site: cst.Call) -> bool:
        """Does `site` hand its function a name (`batch`) that the function hands on to a model run, and
        does the caller, after the call, read that name into what it differentiates or returns from a
        framework's training step, which the framework backwards (`self._trainval_inference(batch)`,
        then `return {"loss": batch["loss"]}` in Lightning's `training_step`)? A model run that returns
        nothing used fills what it is handed (`data.update(...)`): its graph is the training step's."""
        model = self.model
        scope = model.scope_of(site)
        if type(scope) is not cst.FunctionDef:
            return False
        handed = {arg.value.value: arg.value for arg in site.args if type(arg.value) is cst.Name and not arg.star}
        if not handed:
            return False
        tree = model.tree
        trained = [expr for _, exprs in model.provenance.backward_calls(scope) for expr in exprs]
        hook = model.frameworks.hook(scope)
        if hook is not None and hook.per_step and not hook.evaluation and hook.grad is Grad.ON:
            trained += [
                ret.value
                for ret in tree.descendants(scope.body, cst.Return)
                if ret.value is not None and model.scope_of(ret) is scope and tree.is_after(ret, site)
            ]
        read = {id(handed[name]) for name in self._read_after(scope, trained, set(handed), site)}
        for func in model.local_callees(site):
            params = {p for p in parameter_names(func) if id(argument_for(site, func, p)) in read}
            if params and any(
                type(tree.parent_of(call)) is cst.Expr
                and any(params.intersection(names_in(arg.value)) for arg in call.args)
                and (model.provenance.is_module_call(call) or model.module_facts.runs_module(call))
                for call in tree.descendants(func.body, cst.Call)
                if model.scope_of(call) is func
            ):
                return True
        return False

    def _read_after(self, scope: cst.FunctionDef, exprs: list[cst.BaseExpression], names: set[str], site: cst.Call) -> set[str]:
        """Which of `names` do `exprs` read after `site`, themselves or through the values of the names
        they read (`loss = batch["loss"]`, then `loss.backward()`)?"""
        model, tree = self.model, self.model.tree
        found: set[str] = set()
        seen: set[str] = set()
        todo = list(exprs)
        while todo:
            expr = todo.pop()
            for name in [expr] if type(expr) is cst.Name else tree.descendants(expr, cst.Name):
                if name.value in names and tree.is_after(name, site):
                    found.add(name.value)
                if name.value not in seen:
                    seen.add(name.value)
                    todo += [b.value for b in model.bindings(scope, name.value) if b.value is not None]
        return found

    def _returned_from(self, site: cst.Call, scope: cst.FunctionDef) -> bool:
        """Does what `site` returns reach what its function `scope` returns: in a `return` itself, or
        through the names its statement binds or the container it hands the value to
        (`outputs.update(site)`, `outputs.append(site)`), which the returned values read?"""
        model = self.model
        tree = model.tree
        returns = [r for r in tree.descendants(scope.body, cst.Return) if r.value is not None and model.scope_of(r) is scope]
        if any(tree.contains(r.value, site) for r in returns):
            return True
        statement = tree.statement_of(site)
        if isinstance(statement, cst.Assign):
            bound = {n for t in statement.targets for n in target_names(t.target)}
        elif isinstance(statement, (cst.AnnAssign, cst.AugAssign)):
            bound = set(target_names(statement.target))
        else:
            outer = tree.parent_of(tree.parent_of(site))  # the call the site is an argument of
            receiver = outer.func.value if type(outer) is cst.Call and type(outer.func) is cst.Attribute else None
            bound = {receiver.value} if type(receiver) is cst.Name else set()
        returned = {n for r in returns for n in names_in(r.value)}
        return bool(bound & model.provenance.dependencies(returned, scope))

    def _differentiated_by_name(self, func: cst.FunctionDef) -> bool:
        """A method whose receiver the file does not show, called by its name in this file, whose
        result a training step differentiates (`self.policy.evaluate_actions(...)` in `ppo_update`,
        then `policy_loss.backward()`): named like evaluation, it is the training forward."""
        model = self.model
        if model.enclosing_class(func) is None:
            return False
        key = id(func)
        if key not in self._by_name:
            name = func.name.value
            self._by_name[key] = any(
                method_name(call) == name and model.model_runs.feeds_backward(call)
                for call in model.tree.by_type.get(cst.Call, ())
            )
        return self._by_name[key]

    def _handed_to_init(self, func_expr: cst.BaseExpression, method: cst.FunctionDef) -> bool:
        """Is `func_expr` `self.<attr>` that the class's `__init__` sets from its own parameter
        (`self._dynamic_model = dynamic_model`): a model the object was handed, like a parameter?"""
        if not (isinstance(func_expr, cst.Attribute) and code(func_expr.value) == "self"):
            return False
        cls = self.model.enclosing_class(method)
        init = next(
            (s for s in cls.body.body if isinstance(s, cst.FunctionDef) and s.name.value == "__init__"), None
        ) if cls is not None else None
        if init is None:
            return False
        params = self.model.params(init)
        for assign in self.model.tree.descendants(init.body, cst.Assign):
            for target in assign.targets:
                if code(target.target) == code(func_expr):
                    return isinstance(assign.value, cst.Name) and assign.value.value in params
        return False

    def _in_forward(self, node: cst.CSTNode) -> bool:
        scope = self.model.scope_of(node)
        return isinstance(scope, cst.FunctionDef) and self.model.loops.is_module_forward(scope)

    def needs_grad(self, region: cst.CSTNode) -> bool:
        """Saliency, adversarial and gradient-penalty code differentiates on purpose, code that
        switches grad on itself (`torch.set_grad_enabled(True)`, `torch.enable_grad()`) asks for it,
        and so does code that reads the autograd graph a run records (`out.grad_fn`, in the region
        or a hook it defines: a tracer that maps a model's layers by their outputs' `grad_fn`), or makes
        the tensors it runs on require grad (`torch.tensor(data, requires_grad=True)`, `x.requires_grad = True`);
        making a module's parameters require grad (`for p in model.parameters(): p.requires_grad = True`)
        says what a later backward trains, not that this region's forward needs a graph."""
        model = self.model
        if model.loops.has_backward(region) and not (type(region) is cst.FunctionDef and self.flagged_evaluation(region)):
            return True
        if any(a.attr.value == "grad_fn" for a in model.tree.descendants(region, cst.Attribute)):
            return True
        for call in model.tree.descendants(region, cst.Call):
            if method_name(call) in ("set_grad_enabled", "enable_grad") or type(call.func) is cst.Name:
                if model.grad.effect(call) is Grad.ON:
                    return True
            if model.module_facts.switches_parameters(call):
                continue
            name = model.imports.resolve(call.func) or ""
            if name.startswith(("torch.func.", "functorch.")):
                return True
            if method_name(call) == GRAD_LEAF_METHOD:
                flag = call_arg(call, 0, GRAD_LEAF_KEYWORD)
                if flag is None or bool_constant(flag.value) is not False:
                    return True  # `x.requires_grad_()`, with a flag too; `requires_grad_(False)` freezes
            if model.provenance.makes_grad_leaf(call):  # `torch.tensor(..., requires_grad=True)`: it wants a graph
                return True
        for assign in model.tree.descendants(region, cst.Assign):
            t = assign.targets[0].target
            if type(t) is cst.Attribute and t.attr.value == "requires_grad" and not model.module_facts.switches_parameters(assign):
                return True  # a tensor made to require grad (a module's parameters say what a backward trains)
        return False



def _literals_only(call: cst.Call) -> bool:
    """Is every argument of `call` a literal number or string (`frame.head(10)`, `table.head(1)`)? A
    forward runs on tensors; a callee guessed to be a module by its name alone is no module where it
    is handed nothing but literals (a data frame's `head(n)`)."""
    return bool(call.args) and all(arg.star == "" and is_literal(arg.value) for arg in call.args)


def _abstract(func: cst.FunctionDef) -> bool:
    """Does `func` only say it is left to subclasses: a docstring, `pass`, `...`, `raise NotImplementedError`?"""
    body = func.body.body if isinstance(func.body, cst.IndentedBlock) else [func.body]
    for statement in body:
        lines = statement.body if isinstance(statement, cst.SimpleStatementLine) else [statement]
        for line in lines:
            if type(line) is cst.Pass:
                continue
            if type(line) is cst.Expr and type(line.value) in (cst.SimpleString, cst.ConcatenatedString, cst.Ellipsis):
                continue
            raised = line.exc if type(line) is cst.Raise else None
            if raised is not None and "NotImplementedError" in code(raised):
                continue
            return False
    return True


# -- across files: the project summary's part (memlint/analysis/project.py) ----------------
def exported_model_runs(model: "FileContext") -> dict[str, str]:
    """Top-level functions of this file that take arguments and run a model with grad on, not in an
    evaluation region of their own (reported there): name -> the run, for a message (`model(x)`
    (helpers.py:12)). Another file that calls one from its evaluation loop is told so."""
    found: dict[str, str] = {}
    regions = model.eval_regions
    for func in model.tree.by_type.get(cst.FunctionDef, ()):
        if model.tree.parent_of(func) is not model.module or not model.params(func):
            continue
        called = {name.partition(".")[0] for name in model.model_runs.called_values(func)}
        if not called & model.params(func):
            continue  # (the caller hands it the model: a helper that calls nothing it is handed runs none)
        chain = model.model_runs.model_run(func)
        if chain is None or any(regions.own_region(step) for step in chain):
            continue
        found[func.name.value] = model.summaries.describe(chain[-1])
    return found


def _dropped(model: "FileContext", call: cst.Call) -> bool:
    """Is the result of `call` bound to `_` alone (`_ = model(x)`)?"""
    parent = model.tree.parent_of(call)
    return (
        type(parent) is cst.Assign
        and all(type(t.target) is cst.Name and t.target.value == "_" for t in parent.targets)
    )


def _on_self(expr: cst.BaseExpression) -> bool:
    """Is `expr` an attribute of `self` (`self.model`)?"""
    return type(expr) is cst.Attribute and type(expr.value) is cst.Name and expr.value.value == "self"


def _evaluating_module(value: cst.BaseExpression) -> bool:
    """Is `value` a module switched to eval mode where it is written, placed or not (`Net().eval()`,
    `net.eval().to(device)`, `net.to(device).eval()`)?"""
    while type(value) is cst.Call and method_name(value) in MODULE_PLACEMENT:
        value = value.func.value  # type: ignore[attr-defined]
    return type(value) is cst.Call and method_name(value) == "eval" and not value.args


def hands_a_module(model: "FileContext", call: cst.Call) -> bool:
    """Does `call` pass a value that the file shows is a module (`net.eval()`, `net.parameters()`)
    or that its function calls (`model(x)`)?"""
    facts = model.module_facts
    called = model.model_runs.called_values(model.scope_of(call))
    return any(facts.is_module(arg.value, call) or dotted(arg.value) in called for arg in call.args)


def eval_calls(model: "FileContext", imported: list[tuple[cst.Call, str]]) -> list[list[Any]]:
    """Of the calls of imported functions (`imported`: each with its callee as written), those handed
    a module, made with grad on in an evaluation region of this file: whether the callee runs the
    model is the other file's to say. Each: [callee as written, row, column, end row, end column,
    the region in words, the fix in words, suppressed]."""
    from memlint.suppression import is_suppressed

    found: list[list[Any]] = []
    regions = model.eval_regions
    for call, name in imported:
        if model.local_callees(call):
            continue
        if not regions.may_evaluate(model.scope_of(call)) or not hands_a_module(model, call):
            continue  # (a helper that runs a model is handed it; the checks are cheap, the region is not)
        if model.grad_state(call) is not Grad.ON or model.model_runs.runs_module(call):
            continue
        if model.module_facts.runs_frozen(call, direct=False):  # type: ignore[attr-defined]
            continue  # every module it is handed is frozen: no graph
        region = regions.region(call)
        if region is None or regions.needs_grad(region):
            continue
        where, fix = regions.describe(region)
        span = model.range_of(call)
        line = model.line_text(model.tree.statement_of(call))  # (its comment holds the `noqa`)
        suppressed = is_suppressed([line], 1, 1, "ML003", "eval-without-no-grad")
        found.append(
            [name, span.start.line, span.start.column + 1, span.end.line, span.end.column + 1, where, fix, suppressed]
        )
    return found


def literal_at(model: "FileContext", value: cst.BaseExpression, at: cst.CSTNode) -> bool:
    """Is `value`, read at `at`, surely a literal: one as written, a choice between two
    (`1 if context else 2`), or a name every binding of which is one or a loop's target over one
    (`for low, high in [(0.1, None), (None, 0.2)]`)?"""
    if is_literal(value):
        return True
    if type(value) is cst.IfExp:
        return literal_at(model, value.body, at) and literal_at(model, value.orelse, at)
    if type(value) is not cst.Name:
        return False
    bound = model.bindings(model.scope_of(at), value.value)
    return bool(bound) and all(
        (type(b.node) is cst.For and is_literal(b.node.iter)) or (b.value is not None and b.value is not value and is_literal(b.value))
        for b in bound
    )


def _placed_self(value: cst.BaseExpression | None, name: str) -> bool:
    """Is `value` the module `name` moved, cast or switched (`criterion.cuda()`, `net.eval().to(d)`)?"""
    while type(value) is cst.Call and method_name(value) in MODULE_SELF_RETURNING:
        value = value.func.value  # type: ignore[attr-defined]
        if type(value) is cst.Name:
            return value.value == name
    return False
