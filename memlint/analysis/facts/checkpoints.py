"""Where a file's checkpoints are saved from: evidence that their tensors are on the CPU.

`torch.load` without `map_location` puts tensors back on the device they were
saved from; a file that saves its own checkpoints from the CPU shows where
that is. Evidence: an FSDP state dict gathered or offloaded to the CPU
(`FullStateDictConfig(offload_to_cpu=True)`, `ShardedStateDictConfig(offload_to_cpu=True)`,
`StateDictOptions(cpu_offload=True)`), or `torch.save` of a value on the CPU: moved
there (`x.cpu()`, `{k: v.cpu() ...}`), built there (`torch.zeros(n, device="cpu")`,
also through a helper of the file that returns it), or read there
(`torch.load(p, map_location="cpu")[...]`).

`saves_from_cpu` answers for the file; `loads_cpu_saved_file` for one load: it
reads back a file name (`optimizer_state.pt`, `model_rank_{rank}.pt`) that this
file writes with CPU tensors. `per_rank_file`: a load of a file named for the
process's rank reads the shard that rank saved, not rank 0's file.
`downloads_published_weights`: the function fetches the file it loads, where missing, from
torch's published weights, which are CPU tensors.

`none_on_some_path`: a `map_location` that is given but may be None where the
load runs (`None` unless there is no GPU, an object's setting whose constructor
defaults it to None), which loads as if it were not given. `loader_arguments`: what a
call of a loader of the project (one that hands `torch.load` its callers' file and
`map_location`) loads, and with which `map_location`.

`reads_back_own_save`: a scratch file the function has just written; `saved_by_xla`:
XLA code, whose `xm.save` writes CPU tensors; `device_state_keys`: the keys this file's
saves write with state dicts taken as they are (a load read by one reads a checkpoint).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import libcst as cst

from memlint.analysis.library import (
    CPU_SAVED_URL_PREFIXES, FRESH_CONTAINERS, FRESH_MAPPINGS, HOST_DATA_METHODS, TENSOR_METHODS, WEIGHT_DOWNLOADS,
)
from memlint.analysis.syntax.expressions import bool_constant, call_arg, code, keyword_arg, method_name, names_in
from memlint.analysis.facts.ranks import names_a_rank
from memlint.analysis.syntax.calls import parameter_names
from memlint.analysis.flow.summaries import checkpoint_load
from memlint.analysis.syntax.imports import dotted

if TYPE_CHECKING:
    from memlint.analysis.model import SemanticModel

TORCH_SAVE = {"torch.save", "torch.serialization.save"}
TORCH_LOAD = {"torch.load", "torch.serialization.load"}
_CPU_OFFLOAD = {
    "FullStateDictConfig": "offload_to_cpu",
    "ShardedStateDictConfig": "offload_to_cpu",
    "LocalStateDictConfig": "offload_to_cpu",
    "FullOptimStateDictConfig": "offload_to_cpu",
    "ShardedOptimStateDictConfig": "offload_to_cpu",
    "StateDictOptions": "cpu_offload",
}
# Factories that build on the CPU unless given another `device`.
_FACTORIES = {
    "torch.zeros", "torch.ones", "torch.empty", "torch.full", "torch.tensor", "torch.arange", "torch.rand",
    "torch.randn", "torch.zeros_like", "torch.ones_like", "torch.empty_like",
}
_DEPTH = 3  # names and helpers followed from a saved value


def saves_from_cpu(model: "SemanticModel") -> str | None:
    """How this file shows that it saves checkpoints from the CPU (as written), or None."""
    for call in model.tree.by_type.get(cst.Call, ()):
        if _offload_config(model, call) is not None:
            name = (model.imports.resolve(call.func) or "").rsplit(".", 1)[-1]
            return f"`{name}({_CPU_OFFLOAD[name]}=True)`"
        if model.imports.resolve(call.func) in TORCH_SAVE and _saves_cpu_value(model, call):
            return "`torch.save` of tensors on the CPU"
    return None


def loads_cpu_saved_file(model: "SemanticModel", load: cst.Call) -> bool:
    """Does `load` read a file (by its written-out name) that this file saves with CPU tensors?"""
    return any(_saves_cpu_value(model, save) for save in _saves_of_loaded_file(model, load))


def device_save_of_loaded_file(model: "SemanticModel", load: cst.Call) -> cst.Call | None:
    """A `torch.save` of this file that writes the file `load` reads (by its written-out name) with
    something that may hold tensors on a device; None where none does."""
    return next((save for save in _saves_of_loaded_file(model, load) if not _writes_host_data(model, save)), None)


def _saves_of_loaded_file(model: "SemanticModel", load: cst.Call) -> list[cst.Call]:
    """This file's `torch.save`s that write the file `load` reads, by its written-out name."""
    source = call_arg(load, 0, "f")
    key = _file_key(model, source.value, load, 0) if source is not None else None
    if key is None:
        return []
    found = []
    for call in _torch_saves(model):
        target = call_arg(call, 1, "f")
        if target is not None and _file_key(model, target.value, call, 0) == key:
            found.append(call)
    return found


def _writes_host_data(model: "SemanticModel", save: cst.Call) -> bool:
    """Does a `torch.save` write nothing on a device (tensors moved or built on the CPU, a state dict
    taken under a config that offloads it, numbers and strings, the parsed command line)?"""
    saved = call_arg(save, 0, "obj")
    return saved is not None and (_saves_cpu_value(model, save) or _host_data(model, saved.value, save, 0))


def reads_back_own_save(model: "SemanticModel", load: cst.Call, source: cst.BaseExpression) -> bool:
    """Does `load` read back a scratch file its function has just written (`torch.save(x, p)` ...
    `torch.load(p)`)? Its own tensors, on the devices it means them to be."""
    tree = model.tree
    path = code(source)
    for save in tree.descendants(model.scope_of(load), cst.Call):
        if tree.order[id(save)] >= tree.order[id(load)]:
            break
        if model.imports.resolve(save.func) in TORCH_SAVE:
            target = call_arg(save, 1, "f")
            if target is not None and code(target.value) == path:
                return True
    return False


def saved_by_xla(model: "SemanticModel") -> bool:
    """Is this XLA code, whose checkpoints `xm.save` writes, moving every tensor to the CPU? A file named
    for XLA, or one that imports torch_xla at its top level; a file that imports it only under a
    condition (`if is_tpu_available():`) runs on GPUs too."""
    base = model.path.replace("\\", "/").rsplit("/", 1)[-1]
    if "xla" in base.lower():
        return True
    for node in (*model.tree.by_type.get(cst.Import, ()), *model.tree.by_type.get(cst.ImportFrom, ())):
        names = [dotted(a.name) or "" for a in node.names] if isinstance(node, cst.Import) else [
            dotted(node.module) or "" if node.module is not None else ""
        ]
        line = model.tree.parent_of(node)
        if any(n.startswith("torch_xla") for n in names) and model.tree.parent_of(line) is model.module:
            return True
    return False


def state_dict_parameters(model: "SemanticModel", func: cst.FunctionDef) -> list[tuple[int, str]]:
    """The parameters of `func` (each with its place among those a call passes, `self` left out)
    whose value, a part of it or what its body makes of it goes into a `load_state_dict` there
    (`def load_state(net, checkpoint): net.load_state_dict(checkpoint["state_dict"])`): a value
    handed to one is loaded into a model. Also through an attribute of `self` that another method
    of the class puts there (`self.checkpoint = checkpoint` in `__init__`, then
    `self.model.load_state_dict(self.checkpoint["model"])`): a value handed to the constructor."""
    params = parameter_names(func)
    cls = model.enclosing_class(func)
    if params and params[0] in ("self", "cls") and cls is not None:
        params = params[1:]
    tree = model.tree
    fed: set[str] = {f"self.{attr}" for attr in _attributes_loaded(model, cls)} if cls is not None else set()
    flows: list[tuple[set[str], set[str]]] = []  # (the names a statement stores into, the names it reads)
    mine = lambda node: model.scope_of(node) is func  # noqa: E731
    for call in filter(mine, tree.descendants(func, cst.Call)):
        called = call.func
        if call.args and method_name(call) == "load_state_dict":
            fed |= set(names_in(call.args[0].value))
        elif type(called) is cst.Attribute and called.attr.value == "update" and type(called.value) is cst.Name:
            flows.append(({called.value.value}, {n for a in call.args for n in names_in(a.value)}))
    for kind in (cst.Assign, cst.AugAssign, cst.AnnAssign):
        for node in filter(mine, tree.descendants(func, kind)):
            targets = [t.target for t in node.targets] if kind is cst.Assign else [node.target]  # type: ignore[attr-defined]
            if node.value is not None:  # type: ignore[attr-defined]
                stored = {n for t in targets for n in stored_names(t)} | {f"self.{t.attr.value}" for t in targets if _on_self(t)}  # type: ignore[attr-defined]
                flows.append((stored, set(names_in(node.value))))  # type: ignore[attr-defined]
    for loop in filter(mine, tree.descendants(func, cst.For)):
        flows.append((set(stored_names(loop.target)), set(names_in(loop.iter))))  # type: ignore[attr-defined]
    grown = True
    while grown:  # what the fed names are made of (`cleaned[k] = v` in `for k, v in weights.items()`)
        grown = False
        for stored, read in flows:
            if stored & fed and not read <= fed:
                fed |= read
                grown = True
    return [(i, p) for i, p in enumerate(params) if p in fed]


def _on_self(target: cst.BaseExpression) -> bool:
    """Is `target` an attribute of `self` (`self.checkpoint`)?"""
    return type(target) is cst.Attribute and type(target.value) is cst.Name and target.value.value == "self"


def _attributes_loaded(model: "SemanticModel", cls: cst.ClassDef) -> set[str]:
    """The attributes of `self` that a method of `cls` reads into a `load_state_dict`
    (`self.model.load_state_dict(self.checkpoint["model"])`: `checkpoint`)."""
    found = set()
    for call in model.tree.descendants(cls, cst.Call):
        if call.args and method_name(call) == "load_state_dict":
            found |= {a.attr.value for a in model.tree.descendants(call.args[0].value, cst.Attribute) if _on_self(a)}
    return found


def stored_names(target: cst.BaseExpression) -> list[str]:
    """The variables an assignment to `target` binds or stores into: `sd`, `k, v`, `new_sd[k]`."""
    if type(target) is cst.Name:
        return [target.value]
    if type(target) in (cst.Tuple, cst.List):
        return [n for e in target.elements for n in stored_names(e.value)]  # type: ignore[attr-defined]
    if type(target) is cst.Subscript:
        return stored_names(target.value)  # type: ignore[attr-defined]
    return []


def exported_state_dict_parameters(model: "SemanticModel") -> dict[str, list[list]]:
    """`state_dict_parameters` of the functions other files can call (a top-level function,
    `Class.method`): name -> [[place, parameter], ...]."""
    found: dict[str, list[list]] = {}
    loaders = {model.scope_of(c) for c in model.tree.by_type.get(cst.Call, ()) if method_name(c) == "load_state_dict"}
    # and the constructors of the classes they are methods of (what `__init__` keeps, another method may load)
    classes = {model.enclosing_class(f) for f in loaders if type(f) is cst.FunctionDef}
    loaders |= {init for cls in classes if cls is not None for init in model.methods_of(cls, "__init__")}
    for func in loaders:
        name = model.exported_name(func) if type(func) is cst.FunctionDef else None
        if name is not None and (params := state_dict_parameters(model, func)):
            found[name] = [list(p) for p in params]
    return dict(sorted(found.items()))


def per_rank_file(model: "SemanticModel", load: cst.Call) -> bool:
    """Does `load` read a file named for this process's rank (`f"model_rank{accelerator.process_index}.bin"`):
    each rank reads the shard it saved itself, not rank 0's file?"""
    source = call_arg(load, 0, "f")
    return source is not None and _names_rank(model, source.value, load, 0)


def _names_rank(model: "SemanticModel", expr: cst.BaseExpression, at: cst.CSTNode, depth: int) -> bool:
    if isinstance(expr, cst.FormattedString):
        return any(
            isinstance(p, cst.FormattedStringExpression) and names_a_rank(model, p.expression) for p in expr.parts
        )
    if isinstance(expr, cst.Call) and expr.args:
        return any(_names_rank(model, a.value, at, depth) for a in expr.args)
    if isinstance(expr, cst.BinaryOperation):
        return _names_rank(model, expr.left, at, depth) or _names_rank(model, expr.right, at, depth)
    if isinstance(expr, cst.IfExp):
        return _names_rank(model, expr.body, at, depth) and _names_rank(model, expr.orelse, at, depth)
    if isinstance(expr, cst.Name) and depth < _DEPTH:
        values = _reaching_values(model, expr, at)
        return bool(values) and all(v is not None and _names_rank(model, v, at, depth + 1) for v in values)
    return False


def loader_arguments(
    model: "SemanticModel", call: cst.Call
) -> tuple[cst.BaseExpression | None, cst.BaseExpression | None, str] | None:
    """Where `call` calls a checkpoint loader of the project, a function of this file or of another
    that hands `torch.load` the file and the `map_location` its callers pass (`checkpoint_load`:
    `def load_ckpt(path, map_location=None)`, `def load(*args, **kwargs): return torch.load(*args,
    **kwargs)`): the arguments of `call` that it loads as the file and as the `map_location` (None
    where not passed: then the saved device), and the keyword that passes the latter (the loader's
    parameter, `map_location` where forwarded). None where it calls no such loader."""
    callees = model.named_callees(call)
    loads = checkpoint_load(model, callees[0]) if len(callees) == 1 else []
    if loads:
        params = parameter_names(callees[0])
        if params and params[0] in ("self", "cls") and model.enclosing_class(callees[0]) is not None:
            params = params[1:]
        entry: dict[str, Any] | None = {"loads": loads, "params": params}
    else:
        entry = model.project.function(call)
    if not entry or not entry.get("loads"):
        return None
    (file, location), named = entry["loads"], len(entry.get("params") or [])
    source, given = (
        model.project.argument(entry, call, param) if isinstance(param, str)
        else (arg.value if (arg := call_arg(call, named + param, keyword)) is not None else None)
        for param, keyword in ((file, "f"), (location, "map_location"))
    )
    return source, given, location if isinstance(location, str) else "map_location"


def none_on_some_path(model: "SemanticModel", expr: cst.BaseExpression, at: cst.CSTNode) -> str | None:
    """When `expr`, an argument of `at`, may be None where `at` runs, in words ("on some path
    (`map_loc`)", "" for `None` itself); None when it never is
    (or nothing says so). `None`; `"cpu" if device == "cpu" else None`; a name bound to None on
    some path that reaches `at` (`map_location = None`, then `if not torch.cuda.is_available():
    map_location = "cpu"`); `self.map_location` that only the constructor sets, from a parameter
    whose default is None. A parameter of `at`'s own function is its callers' choice: a call of a
    loader that omits it is found at the call."""
    if _is_none(expr):
        return ""
    if isinstance(expr, cst.IfExp):
        if not (_is_none(expr.body) or _is_none(expr.orelse)):
            return None
        test = _setting(model, expr.test, expr)
        if test is not None:  # decided where it is written: `"cpu" if options.cpu_offload else None`
            return none_on_some_path(model, expr.body if test else expr.orelse, at)
        return "on some path"
    if isinstance(expr, cst.Name):
        scope = model.scope_of(at)
        if expr.value in model.params(scope):
            return None
        values = _reaching_values(model, expr, at)
        for value in values:
            if value is not None and (_is_none(value) or isinstance(value, cst.IfExp) and none_on_some_path(model, value, at)):
                return f"on some path (`{expr.value}`)"
        return None
    if isinstance(expr, cst.Attribute) and code(expr.value) == "self":
        return _none_by_default(model, expr.attr.value, at)
    return None


def _setting(model: "SemanticModel", test: cst.BaseExpression, at: cst.CSTNode) -> bool | None:
    """The value of a test that the code fixes where it builds the object it reads: `options.cpu_offload`
    where `options = StateDictOptions(cpu_offload=True, ...)` on every path to `at`; None when unknown."""
    constant = bool_constant(test)
    if constant is not None or not (isinstance(test, cst.Attribute) and isinstance(test.value, cst.Name)):
        return constant
    values = _reaching_values(model, test.value, at)
    settings = set()
    for value in values:
        arg = keyword_arg(value, test.attr.value) if isinstance(value, cst.Call) else None
        settings.add(bool_constant(arg.value) if arg is not None else None)
    return settings.pop() if len(settings) == 1 else None


def _none_by_default(model: "SemanticModel", attr: str, at: cst.CSTNode) -> str | None:
    """`self.<attr>`, set only by the class's constructor, from its parameter whose default is None."""
    scope = model.scope_of(at)
    cls = model.enclosing_class(scope) if isinstance(scope, cst.FunctionDef) else None
    if cls is None:
        return None
    found = None
    for assign in model.tree.descendants(cls, cst.Assign):
        for target in assign.targets:
            t = target.target
            if not (isinstance(t, cst.Attribute) and t.attr.value == attr and code(t.value) == "self"):
                continue
            method = model.scope_of(assign)
            if not (isinstance(method, cst.FunctionDef) and method.name.value == "__init__"):
                return None  # set elsewhere too
            if not isinstance(assign.value, cst.Name):
                return None
            param = next(
                (p for p in (*method.params.params, *method.params.kwonly_params) if p.name.value == assign.value.value),
                None,
            )
            if param is None or param.default is None or not _is_none(param.default):
                return None
            found = f"by default (`self.{attr}`, from `{param.name.value}=None`)"
    return found


def _is_none(expr: cst.BaseExpression) -> bool:
    return isinstance(expr, cst.Name) and expr.value == "None"


def _offload_config(model: "SemanticModel", call: cst.Call) -> str | None:
    name = (model.imports.resolve(call.func) or "").rsplit(".", 1)[-1]
    flag = _CPU_OFFLOAD.get(name)
    if flag is None:
        return None
    arg = keyword_arg(call, flag)
    if arg is None:
        return None
    value = arg.value
    # `offload_to_cpu=True if is_cuda_available else False`: offloaded wherever there is a GPU
    choices = [value.body, value.orelse] if isinstance(value, cst.IfExp) else [value]
    return name if any(bool_constant(c) is True for c in choices) else None


def _saves_cpu_value(model: "SemanticModel", save: cst.Call) -> bool:
    saved = call_arg(save, 0, "obj")
    return saved is not None and (
        _on_cpu(model, saved.value, save, 0)
        or (_taken_state_dict(model, saved.value, save) and _under_offload(model, save))
    )


def _taken_state_dict(
    model: "SemanticModel", expr: cst.BaseExpression, at: cst.CSTNode, seen: frozenset[str] = frozenset()
) -> bool:
    """A state dict (`self.model.state_dict()`, `FSDP.optim_state_dict(...)`, a filtered copy of one):
    what a state-dict config's offload applies to."""
    if isinstance(expr, cst.Call):
        method = method_name(expr)
        if method in ("items", "values", "copy") and isinstance(expr.func, cst.Attribute):
            return _taken_state_dict(model, expr.func.value, at, seen)  # `{k: v for k, v in sd.items() if ...}`
        return "state_dict" in (method or code(expr.func))
    if isinstance(expr, (cst.DictComp, cst.ListComp)):
        return any(_taken_state_dict(model, f.iter, at, seen) for f in _fors(expr.for_in))
    if isinstance(expr, cst.Name):
        if expr.value in seen:
            return True  # `sd = {k: v for k, v in sd.items() ...}`: decided by its other bindings
        values = _reaching_values(model, expr, at)
        inner = seen | {expr.value}
        return bool(values) and all(v is not None and _taken_state_dict(model, v, at, inner) for v in values)
    return False


def _fors(comp_for: cst.CompFor) -> list[cst.CompFor]:
    found = [comp_for]
    while found[-1].inner_for_in is not None:
        found.append(found[-1].inner_for_in)
    return found


def _under_offload(model: "SemanticModel", node: cst.CSTNode) -> bool:
    """Inside `with FSDP.state_dict_type(model, ..., cfg)` (written there, or bound to the name
    the `with` enters) whose config offloads to the CPU."""
    for anc in model.tree.ancestors(node):
        if not isinstance(anc, cst.With):
            continue
        for item in anc.items:
            entered = [item.item]
            if isinstance(item.item, cst.Name):
                entered = [b.value for b in model.bindings(model.scope_of(anc), item.item.value) if b.value is not None]
            for value in entered:
                calls = [value] if isinstance(value, cst.Call) else model.tree.descendants(value, cst.Call)
                if any(_is_offload_config(model, a.value, node) for c in calls for a in c.args):
                    return True
    return False


def _is_offload_config(model: "SemanticModel", expr: cst.BaseExpression, at: cst.CSTNode) -> bool:
    """A state-dict config that offloads to the CPU: built with the flag on, or one whose flag this
    function turns on (`plugin.state_dict_config.offload_to_cpu = is_multi_process`)."""
    if isinstance(expr, cst.Call):
        return _offload_config(model, expr) is not None
    if isinstance(expr, cst.Name):
        values = [b.value for b in model.bindings(model.scope_of(at), expr.value)]
        return bool(values) and all(v is not None and _builds_offload_config(model, v) for v in values)
    if isinstance(expr, cst.Attribute):
        tree = model.tree
        flags = {f"{code(expr)}.{flag}" for flag in _CPU_OFFLOAD.values()}
        for assign in tree.descendants(model.scope_of(at), cst.Assign):
            if any(code(t.target) in flags for t in assign.targets) and bool_constant(assign.value) is not False:
                # set before, on every path to `at` that the same tests pick
                if tree.is_after(at, assign) and _tests(model, assign) <= _tests(model, at):
                    return True
    return False


def _builds_offload_config(model: "SemanticModel", value: cst.BaseExpression) -> bool:
    """`ShardedStateDictConfig(offload_to_cpu=True)`, or that or None (`cfg if should_load else None`)."""
    if isinstance(value, cst.IfExp):
        branches = [b for b in (value.body, value.orelse) if not (isinstance(b, cst.Name) and b.value == "None")]
        return bool(branches) and all(_builds_offload_config(model, b) for b in branches)
    return isinstance(value, cst.Call) and _offload_config(model, value) is not None


def _tests(model: "SemanticModel", node: cst.CSTNode) -> set[str]:
    """The `if` tests (as written) that `node` runs under, in its function."""
    found = set()
    child = node
    for anc in model.tree.ancestors(node):
        if isinstance(anc, (cst.FunctionDef, cst.ClassDef)):
            break
        if isinstance(anc, cst.If) and child is anc.body:
            found.add(code(anc.test))
        child = anc
    return found


def _on_cpu(model: "SemanticModel", expr: cst.BaseExpression, at: cst.CSTNode, depth: int) -> bool:
    if isinstance(expr, cst.Call):
        method = method_name(expr)
        if method == "cpu" or (method == "to" and bool(expr.args) and "cpu" in _text(expr.args[0].value)):
            return True
        if method in TENSOR_METHODS and TENSOR_METHODS[method].location == "host":  # `.item()`, `.numpy()`
            return True
        if method == "state_dict":  # of a module moved to the CPU, or made on the host here and never moved
            module = expr.func.value  # type: ignore[attr-defined]
            if _module_on_cpu(model, module, expr) or model.provenance.host_module(module, model.scope_of(expr)):  # type: ignore[attr-defined]
                return True
        resolved = model.imports.resolve(expr.func) or ""
        if resolved in FRESH_MAPPINGS:  # `OrderedDict([[k, v.cpu()] for k, v in sd.items()])`: what it is handed
            contents = expr.args[FRESH_CONTAINERS[resolved] :]
            return bool(contents) and all(not a.star and _entries_on_cpu(model, a, at, depth) for a in contents)
        if resolved in _FACTORIES:
            device = keyword_arg(expr, "device")
            return device is None or "cpu" in _text(device.value)
        if resolved in TORCH_LOAD:
            where = call_arg(expr, 1, "map_location")
            return where is not None and "cpu" in _text(where.value)
        if depth < _DEPTH:
            callees = model.local_callees(expr)
            return bool(callees) and all(_returns_cpu(model, f, depth + 1) for f in callees)
        return False
    if isinstance(expr, cst.Subscript):  # a part of a CPU state dict
        return _on_cpu(model, expr.value, at, depth)
    if isinstance(expr, cst.Dict):
        values = [e.value for e in expr.elements if isinstance(e, cst.DictElement)]
        return bool(values) and all(_on_cpu(model, v, at, depth) for v in values)
    if isinstance(expr, cst.DictComp):
        return _on_cpu(model, expr.value, at, depth)
    if isinstance(expr, cst.IfExp):  # `v.cpu() if isinstance(v, torch.Tensor) else v`: no tensor left as it was
        tested = _tensor_tested(model, expr.test)
        plain = tested is not None and code(expr.orelse) == tested
        return _on_cpu(model, expr.body, at, depth) and (plain or _on_cpu(model, expr.orelse, at, depth))
    if isinstance(expr, (cst.ListComp, cst.GeneratorExp)):
        return _on_cpu(model, expr.elt, at, depth)
    if isinstance(expr, cst.Name) and depth < _DEPTH:
        values = [b.value for b in model.bindings(model.scope_of(at), expr.value)]
        return bool(values) and all(v is not None and _on_cpu(model, v, at, depth + 1) for v in values)
    return False


def _entries_on_cpu(model: "SemanticModel", arg: cst.Arg, at: cst.CSTNode, depth: int) -> bool:
    """Does an argument of a mapping's constructor give it only entries on the CPU: a value by keyword
    (`dict(step=t.cpu())`), key-value pairs whose values are (`[[k, v.cpu()] for k, v in sd.items()]`),
    or a mapping that holds only such (`dict(cpu_state)`)?"""
    if arg.keyword is not None:
        return _on_cpu(model, arg.value, at, depth)
    handed = arg.value
    pairs = [handed.elt] if type(handed) in (cst.ListComp, cst.GeneratorExp) else None  # type: ignore[attr-defined]
    if type(handed) in (cst.List, cst.Tuple):
        pairs = [e.value for e in handed.elements]  # type: ignore[attr-defined]
    if pairs is None:
        return _on_cpu(model, handed, at, depth)
    return bool(pairs) and all(
        type(p) in (cst.List, cst.Tuple) and len(p.elements) == 2 and _on_cpu(model, p.elements[1].value, at, depth)  # type: ignore[attr-defined]
        for p in pairs
    )


def _tensor_tested(model: "SemanticModel", test: cst.BaseExpression) -> str | None:
    """The expression that `isinstance(x, torch.Tensor)` finds a tensor (as written), or None: where
    the test fails, it holds no tensor."""
    if not (isinstance(test, cst.Call) and len(test.args) == 2 and code(test.func) == "isinstance"):
        return None
    if model.imports.resolve(test.args[1].value) != "torch.Tensor":
        return None
    return code(test.args[0].value)


_PLACEMENTS = ("to", "cpu", "cuda")


def _module_on_cpu(model: "SemanticModel", module: cst.BaseExpression, at: cst.CSTNode) -> bool:
    """Is `module` on the CPU where `at` runs, because the last statement of the function before `at`
    that places it moves it there (`self.model.to('cpu')` before `self.model.state_dict()`)?
    `Module.to` and `Module.cpu` move the module in place, so its state dict then holds CPU tensors."""
    written = code(module)
    scope = model.scope_of(at)
    tree = model.tree
    placements = [
        call
        for call in tree.descendants(scope, cst.Call)
        if method_name(call) in _PLACEMENTS
        and type(tree.parent_of(call)) is cst.Expr  # a statement of its own: the module moves in place
        and model.scope_of(call) is scope
        and tree.is_after(at, call)
        and code(call.func.value) == written  # type: ignore[attr-defined]
    ]
    if not placements:
        return False
    last = placements[-1]  # in source order
    return method_name(last) == "cpu" or (method_name(last) == "to" and bool(last.args) and "cpu" in _text(last.args[0].value))


def _returns_cpu(model: "SemanticModel", func: cst.FunctionDef, depth: int) -> bool:
    returns = [r for r in model.tree.descendants(func, cst.Return) if r.value is not None and model.scope_of(r) is func]
    return bool(returns) and all(_on_cpu(model, r.value, r, depth) for r in returns)


def _file_key(model: "SemanticModel", expr: cst.BaseExpression, at: cst.CSTNode, depth: int) -> str | None:
    """The written-out file name a path ends in: `optimizer_state.pt` for
    `os.path.join(d, "optimizer_state.pt")`, `model_rank_{self.rank}.pt` for
    `f"{path}/model_rank_{self.rank}.pt"` (the names it may be, joined by ` | `); None when no
    part of one of them is written out."""
    names = _file_names(model, expr, at, depth)
    if names is None:
        return None
    keys = sorted({"".join(text if literal else "{" + text + "}" for text, literal in name) for name in names})
    return " | ".join(keys)


def file_patterns(model: "SemanticModel", expr: cst.BaseExpression, at: cst.CSTNode) -> list[str] | None:
    """The names of the file a path (an argument of `at`) may name, as patterns whose `*` stands for
    a part the code computes: `model_step_*.pt` for `f"{opts.output_dir}/ckpt/model_step_{step}.pt"`,
    `cached_*_*` for `os.path.join(d, "cached_{}_{}".format(mode, task))`; None where one of them
    has no part written out (`opts.checkpoint`)."""
    names = _file_names(model, expr, at, 0)
    if names is None:
        return None
    return sorted({"".join(text if literal else "*" for text, literal in name) for name in names})


_Path = tuple[tuple[str, bool], ...]  # (text, written out) pieces: computed pieces are their code
_ALTERNATIVES = 8  # the paths a name or a choice may hold, at most


def _file_names(model: "SemanticModel", expr: cst.BaseExpression, at: cst.CSTNode, depth: int) -> list[_Path] | None:
    """The last parts (file names) of the paths `expr` may hold; None where one has no written-out text."""
    paths = _paths(model, expr, at, depth)
    names = []
    for path in paths:
        cut = max((i for i, (text, literal) in enumerate(path) if literal and "/" in text), default=None)
        if cut is None:
            name = path
        else:
            name = ((path[cut][0].rsplit("/", 1)[1], True), *path[cut + 1 :])
        name = tuple(piece for piece in name if piece[0] or not piece[1])
        if not any(literal for _, literal in name):
            return None
        names.append(name)
    return names


def _paths(model: "SemanticModel", expr: cst.BaseExpression, at: cst.CSTNode, depth: int) -> list[_Path]:
    """The paths `expr` may hold, piece by piece (a piece the code computes as its code)."""
    if isinstance(expr, cst.SimpleString):
        return [((str(expr.evaluated_value), True),)]
    if isinstance(expr, cst.FormattedString):
        return [tuple(
            (part.value, True) if isinstance(part, cst.FormattedStringText) else (code(part.expression), False)
            for part in expr.parts
        )]
    if isinstance(expr, cst.Call) and expr.args and not any(a.star for a in expr.args):
        if (model.imports.resolve(expr.func) or "") in ("os.path.join", "posixpath.join") or method_name(expr) == "joinpath":
            receiver = [expr.func.value] if method_name(expr) == "joinpath" else []  # type: ignore[attr-defined]
            return _joined(model, [*receiver, *(a.value for a in expr.args)], at, depth, "/")
        if method_name(expr) == "format" and isinstance(expr.func.value, cst.SimpleString):  # type: ignore[attr-defined]
            # `"cached_{}_{}".format(mode, task)`: each field is computed
            text = str(expr.func.value.evaluated_value)  # type: ignore[attr-defined]
            fields = _FIELD.findall(text)
            pieces: list[tuple[str, bool]] = []
            for i, written in enumerate(_FIELD.split(text)):
                pieces += [(written, True), *([(fields[i][1:-1], False)] if i < len(fields) else [])]
            return [tuple(pieces)]
        if len(expr.args) == 1 and expr.args[0].keyword is None:
            # `Path(p)`, `str(p)`, `copy_to_local(p)`, `p.as_posix()`-like helpers keep the file's name
            return _paths(model, expr.args[0].value, at, depth)
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, (cst.Divide, cst.Add)):
        return _joined(model, [expr.left, expr.right], at, depth, "/" if isinstance(expr.operator, cst.Divide) else "")
    if isinstance(expr, cst.IfExp):  # `f"{NAME}.bin" if index == 0 else f"{NAME}_{index}.bin"`
        return [*_paths(model, expr.body, at, depth), *_paths(model, expr.orelse, at, depth)][:_ALTERNATIVES]
    if isinstance(expr, cst.Name) and depth < _DEPTH:
        values = _reaching_values(model, expr, at)
        if values and all(v is not None for v in values):
            found = [path for v in values for path in _paths(model, v, at, depth + 1)]  # type: ignore[arg-type]
            if len(found) <= _ALTERNATIVES:
                return found
    return [((code(expr), False),)]


_FIELD = re.compile(r"\{[^{}]*\}")


def _joined(
    model: "SemanticModel", parts: list[cst.BaseExpression], at: cst.CSTNode, depth: int, separator: str
) -> list[_Path]:
    """The paths of `parts` joined by `separator`, each choice with each (at most `_ALTERNATIVES`)."""
    found: list[_Path] = [()]
    for i, part in enumerate(parts):
        glue: _Path = ((separator, True),) if i and separator else ()
        found = [path + glue + tail for path in found for tail in _paths(model, part, at, depth)][:_ALTERNATIVES]
    return found


def _reaching_values(model: "SemanticModel", name: cst.Name, at: cst.CSTNode) -> list[cst.BaseExpression | None]:
    """What `name` may hold where `at` runs (a path bound once per branch is read in its branch)."""
    return [b.value for b in model.provenance.reaching_bindings(model.scope_of(at), name.value, at)]


def _text(expr: cst.BaseExpression) -> str:
    return expr.value if isinstance(expr, cst.SimpleString) else ""


# -- The keys a file's checkpoints hold, and whether their tensors are on the CPU ---------------

ANY_KEY = "*"  # a key the code computes (`save_dict[param_key] = ...`)


def _torch_saves(model: "SemanticModel") -> list[cst.Call]:
    """The file's calls of `torch.save`, in order."""
    found = []
    for call in model.tree.by_type.get(cst.Call, ()):
        func = call.func
        last = func.attr.value if type(func) is cst.Attribute else func.value if type(func) is cst.Name else ""
        if last == "save" and model.imports.resolve(func) in TORCH_SAVE:  # (resolving every call costs)
            found.append(call)
    return found


def saved_entries(model: "SemanticModel") -> list[list]:
    """The entries of the dicts this file hands `torch.save`: [key, on the CPU] for each key written
    out, and [`ANY_KEY`, on the CPU, parameter, its default strings] for a key the code computes from
    a parameter of the saving function (the strings callers pass it name the keys); on the CPU where
    the value is moved or built there (`param.cpu()`, a state dict whose every value the function
    replaces by its `.cpu()`) or holds no tensor (a number, a string). basicsr's `save_network` writes
    `{param_key: state_dict}` with `state_dict[key] = param.cpu()`: [["*", True, "param_key", ["params"]]].
    A load of another file that reads one of these keys reads what the project wrote (`ProjectIndex`
    joins them)."""
    found: list[list] = []
    for call in _torch_saves(model):
        saved = call_arg(call, 0, "obj")
        entries = _dict_entries(model, saved.value, call, 0) if saved is not None else None
        for key, value in entries or ():
            on_cpu = _cpu_or_plain(model, value, call, 0)
            if isinstance(key, str):
                entry = [key, on_cpu]
            else:
                param = _key_parameter(model, key, call, 0) if key is not None else None
                entry = [ANY_KEY, on_cpu, *(param or ("", []))]
            if entry not in found:
                found.append(entry)
    return found


def device_state_keys(model: "SemanticModel") -> dict[str, int]:
    """The keys written out of the dicts this file hands `torch.save` whose value is a state dict taken
    as it is (`{"model": model.state_dict(), "optimizer": optimizer.state_dict()}`): not moved to the
    CPU nor taken under a config that offloads it, so its tensors are where the model's are, maybe a
    device. Each with the line of the first save that writes it. A load read by one of these keys
    (`ckpt["optimizer"]`) reads such a checkpoint."""
    found: dict[str, int] = {}
    for call in _torch_saves(model):
        saved = call_arg(call, 0, "obj")
        entries = _dict_entries(model, saved.value, call, 0) if saved is not None else None
        for key, value in entries or ():
            if not isinstance(key, str) or value is None or key in found or not _taken_state_dict(model, value, call):
                continue
            if not _cpu_or_plain(model, value, call, 0) and not _under_offload(model, call):
                found[key] = model.range_of(call).start.line
    return found


def saves_host_data(model: "SemanticModel") -> list[list[Any]]:
    """For each `torch.save` of this file, in order: [does it write nothing on a device (tensors moved
    or built on the CPU, a state dict taken under a config that offloads it, numbers and strings, the
    parsed command line), the names of the file it writes (`file_patterns`; None where not shown),
    and, where what it writes is a parameter that only other files' calls hand it
    (`torch.save(self.args, path)` after `self.args = args` in `__init__`), that parameter as
    `Handed.exported` gives it, its line]. A project every save of which writes nothing on a device holds its
    checkpoints on the CPU; a load of a file that only such saves write reads CPU tensors
    (`ProjectIndex` joins them, with what other files' calls hand the parameter: `hands_host_data`)."""
    found = []
    for call in _torch_saves(model):
        saved = call_arg(call, 0, "obj")
        target = call_arg(call, 1, "f")
        host = _writes_host_data(model, call)
        handed = None if host or saved is None else _handed_parameter(model, saved.value, call)
        patterns = file_patterns(model, target.value, call) if target is not None else None
        found.append([host, patterns, handed, model.range_of(call).start.line])
    return found


def hands_host_data(model: "SemanticModel", imported: list[tuple[cst.Call, str]]) -> list[list[Any]]:
    """The calls of other files' functions and classes (each with its callee as written) that hand
    some argument data with no tensor in it (`Trainer(args)` where `args = parser.parse_args()`):
    [callee as written, [position or keyword, ...]] for each. Only a file that parses a command line
    (`HOST_DATA_METHODS`) has any beyond literals, which no checkpoint is made of."""
    methods = {method for named in HOST_DATA_METHODS.values() for method in named}
    if not any(a.attr.value in methods for a in model.tree.by_type.get(cst.Attribute, ())):
        return []
    found = []
    for call, name in imported:
        keys: list[int | str] = []
        position = 0
        for arg in call.args:
            if arg.star:
                break
            if type(arg.value) in (cst.Name, cst.Attribute) and _host_data(model, arg.value, call, 0):
                keys.append(arg.keyword.value if arg.keyword is not None else position)
            position += arg.keyword is None
        if keys:
            found.append([name, keys])
    return found


def _host_data(model: "SemanticModel", value: cst.BaseExpression, at: cst.CSTNode, depth: int) -> bool:
    """Does `value` hold nothing on a device where `at` runs: `_cpu_or_plain`, the parsed command line
    (`parser.parse_args()`, also as a parameter that every call of this file hands it, or kept on
    `self` from one in `__init__`)?"""
    if _cpu_or_plain(model, value, at, depth):
        return True
    if depth >= _DEPTH:
        return False
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute):
        receiver = model.provenance.constructed_class(value.func.value, value)
        return value.func.attr.value in HOST_DATA_METHODS.get(receiver, ())
    handed = _handed_values(model, value, at)
    return bool(handed) and all(_host_data(model, v, v, depth + 1) for v in handed)


def _handed_values(model: "SemanticModel", value: cst.BaseExpression, at: cst.CSTNode) -> list[cst.BaseExpression]:
    """What this file's calls hand the parameter `value` is (read where `at` runs), or that `self.<attr>`
    was set from in `__init__`; a name bound in its function, what those bindings hold. [] where not shown."""
    param = _parameter_read(model, value, at)
    if param is not None:
        return model.handed.parameter_values(param)
    if isinstance(value, cst.Name):
        values = _reaching_values(model, value, at)
        return values if values and all(v is not None for v in values) else []  # type: ignore[return-value]
    return []


def _parameter_read(model: "SemanticModel", value: cst.BaseExpression, at: cst.CSTNode) -> cst.Name | None:
    """The parameter (as read) that `value` holds: itself, or the one `self.<attr>` is set from, once,
    in `__init__`."""
    if isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name) and value.value.value == "self":
        values = model.provenance.self_attribute_values(value.attr.value, at)
        if len(values) != 1 or not isinstance(values[0], cst.Name):
            return None
        value, at = values[0], values[0]
        init = model.scope_of(at)
        if not (isinstance(init, cst.FunctionDef) and init.name.value == "__init__"):
            return None
    scope = model.scope_of(at)
    if isinstance(value, cst.Name) and isinstance(scope, cst.FunctionDef) and value.value in model.params(scope):
        return value
    return None


def _handed_parameter(model: "SemanticModel", value: cst.BaseExpression, at: cst.CSTNode) -> list[Any] | None:
    """The parameter `value` holds (`_parameter_read`), where no call of this file hands it anything
    and other files' calls may: `Handed.exported`'s [function or class, parameter, position, whether
    a class, 0]."""
    param = _parameter_read(model, value, at)
    func = model.scope_of(param) if param is not None else None
    if param is None or not isinstance(func, cst.FunctionDef):
        return None
    exported = model.handed.exported(func, param.value)
    return exported if exported and exported[-1] == 0 else None


def keyword_strings(model: "SemanticModel") -> dict[str, list[str]]:
    """The short strings this file's calls pass by keyword (`param_key=["params", "params_ema"]`):
    the keys a saver of the project computes from that parameter, where it is one."""
    found: dict[str, set[str]] = {}
    for call in model.tree.by_type.get(cst.Call, ()):
        for arg in call.args:
            if arg.keyword is None:
                continue
            strings = _strings(arg.value) or _dict_keys(model, arg.value, call)
            if strings:
                found.setdefault(arg.keyword.value, set()).update(strings)
    return {keyword: sorted(values) for keyword, values in sorted(found.items())}


def _dict_keys(model: "SemanticModel", expr: cst.BaseExpression, at: cst.CSTNode) -> list[str]:
    """The keys written out of the dict literal passed (`recording={"epoch": epoch}`, or a name every
    binding of which is one): a saver that copies the dict's items into its checkpoint
    (`for key, value in recording.items(): state[key] = value`) writes these keys."""
    if type(expr) is cst.Name:
        values = [b.value for b in model.bindings(model.scope_of(at), expr.value)]
        if not values or not all(type(v) is cst.Dict for v in values):
            return []
    elif type(expr) is cst.Dict:
        values = [expr]
    else:
        return []
    keys = [e.key for v in values for e in v.elements if type(e) is cst.DictElement]  # type: ignore[union-attr]
    if not keys or not all(type(k) is cst.SimpleString for k in keys):
        return []
    return [str(k.evaluated_value) for k in keys]  # type: ignore[union-attr]


def _strings(expr: cst.BaseExpression | None) -> list[str]:
    """A string written out, or a list or tuple of them (short names only: keys, not messages)."""
    values = [e.value for e in expr.elements] if type(expr) in (cst.List, cst.Tuple) else [expr]
    strings = [v.evaluated_value for v in values if type(v) is cst.SimpleString]
    if not strings or len(strings) != len(values):
        return []
    return [str(s) for s in strings if isinstance(s, str) and 0 < len(s) <= 40 and s.isidentifier()]


def _key_parameter(
    model: "SemanticModel", key: cst.BaseExpression, at: cst.CSTNode, depth: int
) -> tuple[str, list[str]] | None:
    """The parameter of the saving function that a computed key comes from, and the strings of its
    default: `param_key_` of `for net_, param_key_ in zip(net, param_key)` is `param_key`."""
    scope = model.scope_of(at)
    if not isinstance(scope, cst.FunctionDef) or not isinstance(key, cst.Name) or depth > 3:
        return None
    params = [*scope.params.posonly_params, *scope.params.params, *scope.params.kwonly_params]
    for param in params:
        if param.name.value == key.value:
            return key.value, _strings(param.default) if param.default is not None else []
    for loop in model.tree.descendants(scope, cst.For):
        sources = _loop_sources(loop, key.value)
        if sources is not None:
            return _key_parameter(model, sources, at, depth + 1)
    # `param_keys = param_key if isinstance(param_key, list) else [param_key]`: made of one parameter
    names = {param.name.value for param in params}
    read = {n for b in model.bindings(scope, key.value) if b.value is not None for n in names_in(b.value)} & names
    return _key_parameter(model, cst.Name(read.pop()), at, depth + 1) if len(read) == 1 else None


def _loop_sources(loop: cst.For, name: str) -> cst.BaseExpression | None:
    """What a loop's target `name` is taken from: the iterable, or the `zip(...)` argument at its place."""
    if isinstance(loop.target, cst.Name) and loop.target.value == name:
        return loop.iter
    if not isinstance(loop.target, cst.Tuple):
        return None
    names = [e.value.value if isinstance(e.value, cst.Name) else None for e in loop.target.elements]
    if name not in names:
        return None
    iterated = loop.iter
    if isinstance(iterated, cst.Call) and code(iterated.func) == "zip" and len(iterated.args) == len(names):
        return iterated.args[names.index(name)].value
    return None


def read_keys(model: "SemanticModel", load: cst.Call) -> list[str] | None:
    """The literal keys by which a load's result is read (`torch.load(p)["params_ema"]`, or
    `ckpt = torch.load(p)` read only as `ckpt["model"]`, `ckpt.get("model")`, `"model" in ckpt`);
    None where it is read whole or by computed keys."""
    tree = model.tree
    parent = tree.parent_of(load)
    if isinstance(parent, cst.Subscript):
        key = _literal_key(parent)
        return [key] if key is not None else None
    if not (isinstance(parent, cst.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0].target, cst.Name)):
        return None
    name = parent.targets[0].target.value
    scope = model.scope_of(load)
    keys: set[str] = set()
    for read in tree.descendants(scope, cst.Name):
        if read.value != name or read is parent.targets[0].target or model.scope_of(read) is not scope:
            continue
        if not tree.is_after(read, parent):
            continue
        holder = tree.parent_of(read)
        key = None
        if isinstance(holder, cst.Subscript) and holder.value is read:
            key = _literal_key(holder)
        elif isinstance(holder, cst.Attribute) and holder.attr.value == "get":
            call = tree.parent_of(holder)
            if isinstance(call, cst.Call) and call.args and isinstance(call.args[0].value, cst.SimpleString):
                key = str(call.args[0].value.evaluated_value)
        elif isinstance(holder, cst.ComparisonTarget) and isinstance(holder.operator, (cst.In, cst.NotIn)):
            left = tree.parent_of(holder).left  # type: ignore[attr-defined]
            if isinstance(left, cst.SimpleString):
                continue  # `"params_ema" in ckpt` picks a key; it reads nothing
        if key is None:
            return None
        keys.add(key)
    return sorted(keys) or None


def _literal_key(subscript: cst.Subscript) -> str | None:
    if len(subscript.slice) != 1 or not isinstance(subscript.slice[0].slice, cst.Index):
        return None
    value = subscript.slice[0].slice.value
    return str(value.evaluated_value) if isinstance(value, cst.SimpleString) else None


def _dict_entries(
    model: "SemanticModel", expr: cst.BaseExpression, at: cst.CSTNode, depth: int
) -> list[tuple[str | cst.BaseExpression | None, cst.BaseExpression | None]] | None:
    """(key, value) of each entry of the dict `expr` is where `at` runs: a dict literal, `dict(k=v)`,
    or a name bound to one and filled by `name[key] = value`; None where `expr` is no dict the
    function builds (a parameter, a state dict, a call's result). A key is its string where it is
    written out, else the expression that computes it (None for `**other`)."""
    if isinstance(expr, cst.Dict):
        entries: list[tuple[str | cst.BaseExpression | None, cst.BaseExpression | None]] = []
        for element in expr.elements:
            if isinstance(element, cst.DictElement):
                key = element.key
                entries.append((str(key.evaluated_value) if isinstance(key, cst.SimpleString) else key, element.value))
            else:
                entries.append((None, None))  # `**other`: what it holds is not shown
        return entries
    if isinstance(expr, cst.Call) and (model.imports.resolve(expr.func) or code(expr.func)) == "dict":
        if any(a.keyword is None for a in expr.args):
            return None
        return [(a.keyword.value, a.value) for a in expr.args if a.keyword is not None]
    if not isinstance(expr, cst.Name) or depth >= _DEPTH:
        return None
    values = _reaching_values(model, expr, at)
    if not values:
        return None
    entries = []
    for value in values:
        inner = _dict_entries(model, value, at, depth + 1) if value is not None else None
        if inner is None:
            return None
        entries += inner
    scope = model.scope_of(at)
    for assign in model.tree.descendants(scope, cst.Assign):
        for target in assign.targets:
            store = target.target
            if isinstance(store, cst.Subscript) and isinstance(store.value, cst.Name) and store.value.value == expr.value:
                index = store.slice[0].slice if len(store.slice) == 1 else None
                computed = index.value if isinstance(index, cst.Index) else None
                entries.append((_literal_key(store) or computed, assign.value))
    return entries


_PLAIN = (cst.Integer, cst.Float, cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)


def _cpu_or_plain(model: "SemanticModel", value: cst.BaseExpression | None, at: cst.CSTNode, depth: int) -> bool:
    """Does the entry hold nothing on a device: tensors moved or built on the CPU, a dict of them,
    a string or a number written out, a state dict that the function moves to the CPU in place?"""
    if value is None:
        return False
    if isinstance(value, _PLAIN) or (isinstance(value, cst.Name) and value.value in ("True", "False", "None")):
        return True
    if _on_cpu(model, value, at, depth):
        return True
    if isinstance(value, cst.Dict):
        entries = _dict_entries(model, value, at, depth)
        return bool(entries) and all(_cpu_or_plain(model, v, at, depth + 1) for _, v in entries or ())
    return isinstance(value, cst.Name) and _moved_to_cpu_in_place(model, value.value, at)


def _moved_to_cpu_in_place(model: "SemanticModel", name: str, at: cst.CSTNode) -> bool:
    """`for key, param in state_dict.items(): state_dict[key] = param.cpu()` in the function: every
    value of the dict is replaced by a CPU copy before it is saved."""
    tree = model.tree
    scope = model.scope_of(at)
    for loop in tree.descendants(scope, cst.For):
        if not tree.is_after(at, loop) or model.scope_of(loop) is not scope:
            continue
        iterated = loop.iter
        if not (
            isinstance(iterated, cst.Call)
            and method_name(iterated) == "items"
            and isinstance(iterated.func.value, cst.Name)  # type: ignore[attr-defined]
            and iterated.func.value.value == name  # type: ignore[attr-defined]
            and isinstance(loop.target, cst.Tuple)
            and len(loop.target.elements) == 2
            and isinstance(loop.target.elements[1].value, cst.Name)
        ):
            continue
        value = loop.target.elements[1].value.value  # type: ignore[attr-defined]
        for assign in tree.descendants(loop.body, cst.Assign):
            store = assign.targets[0].target
            if (
                isinstance(store, cst.Subscript)
                and isinstance(store.value, cst.Name)
                and store.value.value == name
                and isinstance(assign.value, cst.Call)
                and method_name(assign.value) == "cpu"
                and code(assign.value.func.value) == value  # type: ignore[attr-defined]
            ):
                return True
    return False


def downloads_published_weights(model: "SemanticModel", call: cst.Call, source: cst.BaseExpression) -> bool:
    """`if not path.exists(): hub.load_state_dict_from_url(f"https://download.pytorch.org/models/{path.name}",
    path.parent)` then `torch.load(p)` where `path = Path(p)`: the function fetches the file it
    loads, where missing, from torch's published weights (CPU_SAVED_URL_PREFIXES) into its folder."""
    scope = model.scope_of(call)
    for fetch in model.tree.descendants(scope, cst.Call):
        if model.scope_of(fetch) is not scope or (model.imports.resolve(fetch.func) or "") not in WEIGHT_DOWNLOADS:
            continue
        url = call_arg(fetch, 0, "url")
        folder = call_arg(fetch, 1, "model_dir")
        if url is None or folder is None or not _published_url(model, url.value, scope):
            continue
        if _folder_of(model, folder.value, source, scope):
            return True
    return False


def fetches_published_weights(model: "SemanticModel", call: cst.Call, url: cst.BaseExpression) -> bool:
    """`load_state_dict_from_url(model_urls[arch])` where every URL `model_urls` holds is one of torch's
    published weights (CPU_SAVED_URL_PREFIXES): CPU tensors."""
    return _published_url(model, url, model.scope_of(call))


def written_url(model: "SemanticModel", url: cst.BaseExpression, at: cst.CSTNode, depth: int = 0) -> bool:
    """Is the URL one this file writes out: a string, or what a name, a parameter (as this file's calls
    hand it) or an item of a dict holds, each of them such a string (`checkpoint_paths["slow_r50"]`
    where `checkpoint_paths = {"slow_r50": f"{root_dir}/SLOW_8x8_R50.pyth"}`)? Not a URL a library
    hands (`url_map[name]` imported), nor one the code does not show (`args.weights`)."""
    if type(url) in (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString):
        return True
    if depth >= _DEPTH:
        return False
    if type(url) is cst.Subscript and type(url.value) is cst.Name:
        tables = _handed_values(model, url.value, at) or [b.value for b in model.bindings(model.module, url.value.value)]
        return bool(tables) and all(
            type(t) is cst.Dict
            and bool(t.elements)
            and all(type(e) is cst.DictElement and written_url(model, e.value, t, depth + 1) for e in t.elements)
            for t in tables
        )
    if type(url) is cst.Name:
        scope = model.scope_of(at)
        if isinstance(scope, cst.FunctionDef) and url.value in model.params(scope):  # what every call of it hands
            values: list[cst.BaseExpression | None] = list(model.handed.handed_values(scope, url.value))
        else:
            values = _handed_values(model, url, at) or [b.value for b in model.bindings(model.module, url.value)]  # type: ignore[misc]
        return bool(values) and all(v is not None and v is not url and written_url(model, v, v, depth + 1) for v in values)
    return False


def _published_url(model: "SemanticModel", url: cst.BaseExpression, scope: cst.CSTNode) -> bool:
    """A string (or f-string, or a name bound only to one, in its function or the module) that starts
    with a CPU_SAVED_URL_PREFIXES entry; or an item of a dict (so bound) every value of which is one."""
    if type(url) is cst.Name:
        bound = model.bindings(scope, url.value) or model.bindings(model.module, url.value)
        return bool(bound) and all(b.value is not None and b.value is not url and _published_url(model, b.value, scope) for b in bound)
    if type(url) is cst.Subscript and type(url.value) is cst.Name:
        bound = model.bindings(scope, url.value.value) or model.bindings(model.module, url.value.value)
        return bool(bound) and all(
            type(b.value) is cst.Dict
            and bool(b.value.elements)
            and all(type(e) is cst.DictElement and _published_url(model, e.value, scope) for e in b.value.elements)
            for b in bound
        )
    if type(url) is cst.SimpleString:
        text = url.evaluated_value
        return isinstance(text, str) and text.startswith(CPU_SAVED_URL_PREFIXES)
    if type(url) is cst.FormattedString:
        head = url.parts[0] if url.parts else None
        return type(head) is cst.FormattedStringText and head.value.startswith(CPU_SAVED_URL_PREFIXES)
    return False


def _folder_of(
    model: "SemanticModel", folder: cst.BaseExpression, source: cst.BaseExpression, scope: cst.CSTNode
) -> bool:
    """Is `folder` the folder of the file `source` names: `path.parent` (or a name bound only to it)
    where `path` is bound only to `Path(source)`?"""
    if type(folder) is cst.Name:
        bound = model.bindings(scope, folder.value)
        return bool(bound) and all(b.value is not None and b.value is not folder and _folder_of(model, b.value, source, scope) for b in bound)
    if not (type(folder) is cst.Attribute and folder.attr.value == "parent" and type(folder.value) is cst.Name):
        return False
    bound = model.bindings(scope, folder.value.value)
    return bool(bound) and all(
        type(b.value) is cst.Call
        and (model.imports.resolve(b.value.func) or "") in ("pathlib.Path", "pathlib.PosixPath")
        and len(b.value.args) == 1
        and code(b.value.args[0].value) == code(source)
        for b in bound
    )
