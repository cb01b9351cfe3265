"""Project-wide analysis: what one file's findings depend on in another file.

Each file is parsed once, in a worker process, which also writes a small
JSON summary of what other files may need to know about it: the custom
autograd Functions that park tensors on `ctx`, what its top-level functions
return, which imported functions it calls and whether with grad. The parent
process joins the summaries into a `ProjectIndex` (memlint/project_index.py) and adjusts findings:

* ML001 becomes an error, naming the Function and its file, when the kept
  value comes from a project Function that keeps tensors on `ctx`, directly
  (`Fn.apply(...)`) or through project functions that return its result;
* ML003 is dropped for an evaluation function that its own file never calls
  and that other files call only from no-grad code;
* ML002 about Lightning's cache-less autocast around `training_step` is kept
  only where the installed Lightning release has it, and, for a module whose
  Trainer is built in another file, only where a project file builds one with
  mixed precision (`analysis/regions/lightning_precision.py`).

Per-file findings and summaries depend only on the file, so the cache stays
keyed on file content; the adjustments are recomputed on every run.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any, Callable, Collection

import libcst as cst

from memlint.analysis.regions import lightning_precision as lightning
from memlint.analysis.facts.checkpoints import (
    device_state_keys,
    exported_state_dict_parameters,
    hands_host_data,
    keyword_strings,
    saved_entries,
    saves_host_data,
)
from memlint.analysis.facts.checkpoint_reads import star_imported, value_read_into_model
from memlint.analysis.facts.cuda_init import ALLOC_VARIABLES, alloc_setting
from memlint.analysis.syntax.expressions import code, names_in, reads_as_name
from memlint.analysis.flow.summaries import exported, kept_argument_calls
from memlint.analysis.facts.hooks import exported_hook_registrations, step_calls
from memlint.analysis.syntax.imports import dotted
from memlint.analysis.regions.frameworks import named_for_evaluation
from memlint.analysis.regions.model_runs import eval_calls, exported_model_runs
from memlint.analysis.regions.grad import Grad
from memlint.analysis.questions import EVALUATING
from memlint.analysis.tensor_api import TENSOR_API
from memlint.suppression import is_suppressed

if TYPE_CHECKING:
    from memlint.analysis.model import SemanticModel

# Files that may matter to other files even when no rule needs to look at them (`torch.save`: what the
# project writes to its checkpoint files).
SUMMARY_NEEDLES = ("ctx", "no_grad", "inference_mode", "set_grad_enabled", ".apply(", "cuda", "ALLOC_CONF", "precision", "torch.save")


# What `ProjectIndex.adjust` reads of the very file whose findings it adjusts (its imports, what
# its functions return, its Functions, its Trainers); the other parts adjust other files' findings
# only, so the language server computes them once the typing pauses (server/app.py).
OWN_PARTS = frozenset(
    {
        "imports", "ctx_functions", "returns", "eval_calls", "step_calls", "trainer_precisions", "saved_entries",
        "keyword_strings", "host_saves",
    }
)


def summarize(model: "SemanticModel", parts: Collection[str] | None = None) -> dict[str, Any]:
    """The facts about this file that other files' findings may depend on (only `parts`, if given)."""
    tree = model.tree
    top_level = [f for f in tree.by_type.get(cst.FunctionDef, ()) if tree.parent_of(f) is model.module]
    imported_roots = set(model.imports.aliases) | set(model.imports.relative)
    imported = cache(lambda: _imported_calls(model, imported_roots))  # three parts read them
    # and the calls of methods of imported classes on objects the file shows the class of (two parts)
    callees = cache(lambda: imported() + _method_calls(model, imported_roots, local=True))
    builders: dict[str, Callable[[], Any]] = {  # in the order they were always computed (memos fill in order)
        "returns": lambda: _returns(model, top_level),
        "calls": lambda: _calls(model, imported() + _method_calls(model, imported_roots)),
        "alloc_setters": lambda: _alloc_setters(model, top_level),
        "calls_after_cuda": lambda: _calls_after_cuda(model, imported()),
        "imports": lambda: imports(model),
        "ctx_functions": lambda: sorted({s.function.name.value for s in model.autograd_functions.tensor_stores}),
        "flow": lambda: exported(model),
        "kept_argument_calls": lambda: kept_argument_calls(model, imported_roots),
        "model_runs": lambda: exported_model_runs(model),
        "eval_calls": lambda: eval_calls(model, imported()),
        "hook_registrations": lambda: exported_hook_registrations(model),
        "step_calls": lambda: step_calls(model, imported_roots),
        "trainer_precisions": lambda: _trainer_precisions(model),
        "bases": lambda: _imported_bases(model, imported_roots),
        "saved_entries": lambda: saved_entries(model),
        "state_keys": lambda: device_state_keys(model),
        "keyword_strings": lambda: keyword_strings(model),
        "host_saves": lambda: saves_host_data(model),
        "passes": lambda: model.handed.passes(imported()),
        "handed_callables": lambda: model.handed.callables_handed(imported()),
        "method_grad": lambda: _method_grad(model, imported_roots),
        "per_step_calls": lambda: _per_step_calls(model, callees()),
        "history_calls": lambda: _history_calls(model, callees()),
        "handed_imports": lambda: _handed_imports(model, imported_roots),
        "hands_host": lambda: hands_host_data(model, imported()),
        "handed_methods": lambda: _handed_methods(model, imported_roots),
        "trained_calls": lambda: _trained_calls(model, imported(), imported_roots),
        "state_dict_calls": lambda: _state_dict_calls(model, imported()),
        "state_dict_params": lambda: exported_state_dict_parameters(model),
        "applied_tensors": lambda: model.autograd_functions.applied_tensors(imported()),
        "batch_calls_without_grad": lambda: _batch_calls_without_grad(model, callees()),
        "differentiates": lambda: bool(model.provenance.backward_calls(model.module)),
        "object_attributes": lambda: _object_attributes(model),
    }
    found = {part: build() for part, build in builders.items() if parts is None or part in parts}
    return {part: found[part] for part in _ORDER if part in found}


def _state_dict_calls(model: "SemanticModel", imported: list[tuple[cst.Call, str]]) -> list[str]:
    """The imported functions (as written) a call of which this file reads the value of into a model
    (`net.load_state_dict(load_from_pth(url))`, `states = load_all(p)` ... `net.load_state_dict(states["net"])`):
    what they return is a checkpoint. Following the value of every imported call costs: only a file
    that calls `load_state_dict` somewhere is asked."""
    if not any(a.attr.value == "load_state_dict" for a in model.tree.by_type.get(cst.Attribute, ())):
        return []
    # and the calls of names that a star import may bring (`from helpers import *`)
    starred = [(c, c.func.value) for c in model.tree.by_type.get(cst.Call, ()) if star_imported(model, c.func, c)]  # type: ignore[attr-defined]
    return sorted({name for call, name in [*imported, *starred] if value_read_into_model(model, call)})


def imports(model: "SemanticModel") -> dict[str, list]:
    """The names the file's imports bind: name -> [dots of a relative import, module or name]; and
    its star imports (`from .deep import *`), in order, under `*0`, `*1`, ... (no name is written so)."""
    return (
        {k: [0, v] for k, v in model.imports.aliases.items()}
        | {k: list(v) for k, v in model.imports.relative.items()}
        | {f"*{i}": list(star) for i, star in enumerate(model.imports.star)}
    )


_ORDER = (
    "alloc_setters", "calls_after_cuda", "imports", "ctx_functions", "returns", "calls", "flow",
    "kept_argument_calls", "model_runs", "eval_calls", "hook_registrations", "step_calls", "trainer_precisions",
    "bases", "saved_entries", "keyword_strings", "passes", "method_grad", "per_step_calls", "host_saves",
    "handed_imports", "hands_host", "handed_methods", "trained_calls", "state_dict_calls", "state_dict_params",
    "state_keys", "handed_callables", "applied_tensors", "batch_calls_without_grad", "differentiates", "object_attributes",
    "history_calls",
)  # the summary's keys as the cache has always written them


def _returns(model: "SemanticModel", top_level: list[cst.FunctionDef]) -> dict[str, list[str]]:
    """Top-level function -> the callees whose results its `return`s may hand back."""
    returns: dict[str, list[str]] = {}
    for func in top_level:
        values = [
            ret.value
            for ret in model.tree.descendants(func.body, cst.Return)
            if ret.value is not None and model.scope_of(ret) is func
        ]
        refs = history_sources(model, values, func.body) if values else set()
        if refs:
            returns[func.name.value] = sorted(refs)
    return returns


def _imported_calls(model: "SemanticModel", imported_roots: set[str]) -> list[tuple[cst.Call, str]]:
    """The file's calls of imported functions (a root bound by an import), in source order, with
    the callee as written."""
    found = []
    for call in model.tree.by_type.get(cst.Call, ()):
        name = dotted(call.func)
        if name and name.split(".")[0] in imported_roots:
            found.append((call, name))
    return found


def _imported_bases(model: "SemanticModel", imported_roots: set[str]) -> list[str]:
    """The imported classes (as written) that this file's classes derive from: their facts (the
    methods they call once per step) reach this file's overrides."""
    found = set()
    for cls in model.tree.by_type.get(cst.ClassDef, ()):
        for base in cls.bases:
            name = dotted(base.value) if base.keyword is None else None
            if name and name.split(".")[0] in imported_roots:
                found.add(name)
    return sorted(found)


def _calls(model: "SemanticModel", imported: list[tuple[cst.Call, str]]) -> list[list]:
    """Calls of imported functions: [callee as written, grad state]. A call whose modules are all
    frozen (`test_network(net, env)` after `net.requires_grad_(False)`) records no graph of theirs:
    for a callee that runs what it is handed, it is a call without grad."""
    found = []
    for call, name in imported:
        state = model.grad_state(call)
        if state is Grad.ON and model.module_facts.runs_frozen(call, direct=False):
            state = Grad.OFF
        # with grad on, handed modules in eval mode only, outside training: an evaluating call
        evaluating = state is Grad.ON and call.args and model.eval_regions.evaluating_call(call)
        found.append([name, EVALUATING if evaluating else state.value])
    return found


def _method_calls(model: "SemanticModel", imported_roots: set[str], local: bool = False) -> list[tuple[cst.Call, str]]:
    """The file's calls of methods of imported classes on `self.<attr>` (with `local`, also on a
    variable), where the file shows the object's class (`alg: PPO` declared in the class,
    `self.meter = Meter()`, `ema = EMA(model)`): with the callee as `Class.method`, as written where
    the class is imported (`PPO.act`)."""
    found = []
    for call in model.tree.by_type.get(cst.Call, ()):
        func = call.func
        if type(func) is not cst.Attribute:
            continue
        receiver = func.value
        on_self = type(receiver) is cst.Attribute and type(receiver.value) is cst.Name and receiver.value.value == "self"
        if not (on_self or local and type(receiver) is cst.Name and receiver.value not in ("self", "cls")):
            continue
        values = model.provenance.instance_values(receiver, call)
        classes = {dotted(v.func) if type(v) is cst.Call else None for v in values}
        if len(classes) == 1 and (cls := classes.pop()) and cls.split(".")[0] in imported_roots:
            found.append((call, f"{cls}.{func.attr.value}"))
    return found


def _handed_imports(model: "SemanticModel", imported_roots: set[str]) -> list[str]:
    """The imported names (as written) this file uses other than by calling them (`pool.map(evaluate,
    batches)`, `callbacks=[evaluate]`, a bare decorator): wherever such a function runs, its grad
    mode is out of sight here, so its calls (`calls`) are not all of its runs."""
    tree = model.tree
    in_imports = {
        id(node)
        for statement in (*tree.by_type.get(cst.Import, ()), *tree.by_type.get(cst.ImportFrom, ()))
        for node_type in (cst.Name, cst.Attribute)
        for node in tree.descendants(statement, node_type)
    }
    found = set()
    for node in (*tree.by_type.get(cst.Name, ()), *tree.by_type.get(cst.Attribute, ())):
        head = node
        while type(head) is cst.Attribute:
            head = head.value
        if type(head) is not cst.Name or head.value not in imported_roots:
            continue  # (most names: no import binds their first part; asked first, it is the cheapest)
        parent = tree.parent_of(node)
        if type(parent) is cst.Attribute and parent.value is node:
            continue  # the head of a longer name (`utils` of `utils.evaluate`)
        if (type(parent) is cst.Call and parent.func is node) or id(node) in in_imports:
            continue  # called, or imported
        found.add(dotted(node))
    return sorted(found)


# Where an attribute read hands its value on (an argument, an element, a value bound or returned), by
# the parent's field that holds it: a method read there (`callbacks=[self.evaluator.score]`) runs
# wherever it is handed.
_HANDING_FIELDS = {
    cst.Arg: ("value",), cst.Element: ("value",), cst.StarredElement: ("value",), cst.DictElement: ("value",),
    cst.Assign: ("value",), cst.AnnAssign: ("value",), cst.Return: ("value",), cst.IfExp: ("body", "orelse"),
}


def _handed_methods(model: "SemanticModel", imported_roots: set[str]) -> list[str]:
    """The attribute names this file reads off an object to hand them on uncalled (`map(self.ev.score,
    xs)`, `hooks = [trainer.evaluate]`): a method of that name may run there in any grad mode, so
    the calls of its name (`method_grad`) are not all of its runs. Attributes of imported modules
    (`F.relu`) and tensor methods name no project method."""
    found = set()
    for node in model.tree.by_type.get(cst.Attribute, ()):
        name = node.attr.value
        parent = model.tree.parent_of(node)
        fields = _HANDING_FIELDS.get(type(parent), ())
        if name in TENSOR_API or not any(getattr(parent, field) is node for field in fields):
            continue
        root = dotted(node.value)
        if not (root and root.partition(".")[0] in imported_roots):
            found.add(name)
    return sorted(found)


def _per_step_calls(model: "SemanticModel", calls: list[tuple[cst.Call, str]]) -> list[str]:
    """The imported functions and methods of imported classes (as written: `update_ema`, `EMA.update`)
    that this file calls on every training step: in a step loop, or in a function run once per step.
    What such a callee keeps outlives the step it was made in, whatever its own file shows."""
    return sorted({name for call, name in calls if model.grad_state(call) is not Grad.OFF and model.loops.step_region(call) is not None})


def _history_calls(model: "SemanticModel", calls: list[tuple[cst.Call, str]]) -> list[list[Any]]:
    """[callee as written, position or keyword (`*`, `**` for an unpacked argument), line] of each argument
    with autograd history that a call of `per_step_calls` hands over (`self.meter.update(**outputs)` with
    `outputs` a model's): the callee's parameter holds a value with history on every step, whatever its
    own file shows. Positions leave out `self`, as a bound call's do."""
    found = []
    for call, name in calls:
        if model.grad_state(call) is Grad.OFF or model.loops.step_region(call) is None:
            continue
        position = 0
        for arg in call.args:
            if arg.keyword is not None:
                key: int | str = arg.keyword.value
            elif arg.star:
                key = arg.star
            else:
                key, position = position, position + 1
            if model.provenance.carries_history(arg.value, call):
                found.append([name, key, model.range_of(call).start.line])
    return sorted(found, key=str)


def _object_attributes(model: "SemanticModel") -> list[str]:
    """The attribute names this file sets on an object it holds by a name other than `self`
    (`rnn.hidden = rnn.init_hidden(n)`): a module that keeps state on `self` may have it set, reset
    or detached from here."""
    return sorted(
        {
            target.target.attr.value
            for assign in model.tree.by_type.get(cst.Assign, ())
            for target in assign.targets
            if type(target.target) is cst.Attribute and not reads_as_name(target.target.value, "self")
        }
    )


def _batch_calls_without_grad(model: "SemanticModel", calls: list[tuple[cst.Call, str]]) -> list[str]:
    """The imported functions and methods of imported classes (as `per_step_calls` writes them) that
    this file calls once per batch with grad off (`evaluator.eval_step(batch)` in a loop over batches
    under `torch.no_grad()`): an evaluation step, whatever its own file shows. What it keeps beyond
    its call (`self.outputs.append(out)`) is kept once per evaluation batch."""
    return sorted({name for call, name in calls if model.grad_state(call) is Grad.OFF and model.loops.step_region(call) is not None})


def _method_grad(model: "SemanticModel", imported_roots: set[str]) -> dict[str, str]:
    """Each method name this file calls on an object (`self.policy.get_log_probs_ref_model(...)`,
    whatever the receiver's class) -> "off" where every such call runs without grad, else "on".
    A method whose class no caller shows is still called by its name: where every call of that name
    in the project runs without grad, so does the method (`ProjectIndex.only_called_without_grad`).
    `self.evaluate()` where this file shows the method it runs is that method's call, no other's.
    Library calls (`torch.cat`, `np.stack`, a module's tensor methods) are left out: no project
    method is reached through an imported module, and tensor methods are no project's."""
    found: dict[str, str] = {}
    for call in model.tree.by_type.get(cst.Call, ()):
        func = call.func
        if type(func) is not cst.Attribute:
            continue
        name = func.attr.value
        root = dotted(func.value)
        if name in TENSOR_API or (root and root.partition(".")[0] in imported_roots):
            continue
        if root in ("self", "cls") and model.method_class(call) is not None and model.named_callees(call):
            continue  # the method of its own class (hierarchy) that this file defines, not any of that name
        state = "off" if model.grad_state(call) is Grad.OFF else "on"
        if found.get(name) != "on":
            found[name] = state
    return dict(sorted(found.items()))


def _trained_calls(model: "SemanticModel", imported: list[tuple[cst.Call, str]], imported_roots: set[str]) -> list[str]:
    """The callees whose results this file differentiates (`values, log_probs = self.policy.evaluate_actions(obs)`,
    then a loss built from them is backwarded, here or after the functions that make the call return
    it): imported functions as `calls` writes them, and, as `.name`, each method called on an object
    whose class the file does not show, which may be any project method of that name (as `method_grad`
    counts them). A function named like evaluation that another file trains through is a training forward."""
    regions = model.eval_regions
    # (asked only of functions named like evaluation, `EvalRegions.trained_through`: the others' calls
    # are not followed, which on a corpus is most of the cost)
    found = {name for call, name in imported if named_for_evaluation(name.rpartition(".")[2]) and regions.differentiated_at(call)}
    for call in model.tree.by_type.get(cst.Call, ()):
        func = call.func
        if type(func) is not cst.Attribute or not named_for_evaluation(func.attr.value):
            continue
        root = dotted(func.value)
        if func.attr.value in TENSOR_API or (root and root.partition(".")[0] in imported_roots):
            continue
        if root in ("self", "cls") and model.method_class(call) is not None and model.named_callees(call):
            continue  # the method of its own class that this file defines: its own analysis asks
        if regions.differentiated_at(call):
            found.add(f".{func.attr.value}")
    return sorted(found)


def _trainer_precisions(model: "SemanticModel") -> list[list]:
    """This file's Lightning Trainers that run the steps under `MixedPrecision`: [precision, line]."""
    if not any(v.split(".")[0] in ("lightning", "pytorch_lightning") for v in model.imports.aliases.values()):
        return []
    return [[t.precision, model.range_of(t.node).start.line] for t in lightning.trainer_precisions(model) if t.mixed]


def _alloc_setters(model: "SemanticModel", top_level: list[cst.FunctionDef]) -> dict[str, list]:
    """Top-level functions that set an allocator variable with nothing in this file
    using CUDA first: function -> [variable, row, column, end row, end column, suppressed]."""
    strings = model.tree.by_type.get(cst.SimpleString, ())
    if not any(v in node.value for node in strings for v in ALLOC_VARIABLES):
        return {}
    found: dict[str, list] = {}
    cuda = model.cuda_init
    for func in top_level:
        for node_type in (cst.Assign, cst.Call):
            for node in model.tree.descendants(func, node_type):
                setting = alloc_setting(model, node)
                if setting is None or cuda.launches_after(node) or cuda.cuda_before(node) is not None:
                    continue
                where = model.range_of(node)
                # a suppression comment lives on the statement's line
                line = model.line_text(model.tree.statement_of(node))
                suppressed = is_suppressed([line], 1, 1, "ML010", "alloc-conf-too-late")
                found.setdefault(
                    func.name.value,
                    [setting[0], where.start.line, where.start.column + 1, where.end.line, where.end.column + 1, suppressed],
                )
    return found


def _calls_after_cuda(model: "SemanticModel", imported: list[tuple[cst.Call, str]]) -> list[list]:
    """Calls of imported functions made after this file used CUDA: [callee, CUDA use, its line]."""
    cuda = model.cuda_init
    if not cuda.cuda_uses:
        return []
    late: dict[str, cst.CSTNode] = {}  # the index reads the first late call of each callee: keep one
    for call, name in imported:
        if name in late:
            continue
        used = cuda.cuda_before(call)
        if used is not None:
            late[name] = used
    where = model.positions.ranges(late.values())  # at once: a statement's code is generated once
    return [[name, " ".join(code(used).split())[:40], where[used].start.line] for name, used in late.items()]


def history_sources(
    model: "SemanticModel", expr: cst.BaseExpression | list[cst.BaseExpression], at: cst.CSTNode
) -> set[str]:
    """Callees (as written) whose results may flow into `expr` (or into any of a list of
    expressions of one scope, at once: the names they depend on are one closure) within its scope."""
    scope = model.scope_of(at)
    exprs = expr if isinstance(expr, list) else [expr]
    found = {dotted(c.func) for e in exprs for c in _calls_in(model, e)}
    for name in model.provenance.dependencies({n for e in exprs for n in names_in(e)}, scope):
        for binding in model.bindings(scope, name):
            if binding.value is not None:
                found |= {dotted(c.func) for c in _calls_in(model, binding.value)}
    return {f for f in found if f}


def _calls_in(model: "SemanticModel", expr: cst.CSTNode) -> list[cst.Call]:
    calls = [expr] if isinstance(expr, cst.Call) else []
    return calls + model.tree.descendants(expr, cst.Call)
