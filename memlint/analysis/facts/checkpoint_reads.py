"""What a loaded value is read into: the facts that show a load holds a checkpoint, or nothing on a device.

`torch.load` without `map_location` matters for what holds tensors that were on a
device: a state dict (it goes to a `load_state_dict`, an argument `state_dict=`, a
function of the project that puts its parameter there) or a pickled model (it is
run, or a method only a module has is called on it). What it is read into decides,
whatever it is called: a load read only into an LR scheduler or a GradScaler built
from torch's classes, or into `torch.set_rng_state`, holds Python numbers and CPU
tensors. `load_reads` gathers these uses for one load, following what the function
makes of the loaded value (`sd = ckpt["model"]`, `for k, v in ckpt.items()`, a dict
it updates), the function that hands it back and that function's callers in the
file, and the calls of other files' functions it is handed to (for the project's
index to answer). The rule decides from them; where none shows what the load
holds, only names are left, which the rule weighs as an assumption.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

import libcst as cst

from memlint.analysis.facts.checkpoints import fed_to_load_state_dict, state_dict_parameters, stored_names
from memlint.analysis.library import HOST_STATE_CLASSES, MODULE_API_METHODS, RNG_STATE_SETTERS, STATE_DICT_KEYWORDS, TENSOR_METHODS
from memlint.analysis.syntax.expressions import code, method_name, names_in
from memlint.analysis.syntax.imports import dotted

if TYPE_CHECKING:
    from memlint.analysis.model import SemanticModel

# Methods only a module has (not a tensor, a dict or an array): a loaded value they are called on is a pickled model
_MODULE_ONLY = MODULE_API_METHODS - set(TENSOR_METHODS) - {
    "to", "cpu", "cuda", "type", "apply", "share_memory", "requires_grad_", "to_empty", "xpu", "ipu", "compile", "generate",
    "load_state_dict",
}
_FLOW_DEPTH = 3  # the names made of a loaded value, of them, ... that are followed to a `load_state_dict`


class Reader(NamedTuple):
    """A call that reads a loaded value into a model: `kind` is "model" (it runs the value, or calls a
    method only a module has on it), "host" (the `load_state_dict` of an LR scheduler or a GradScaler
    built from torch's classes), "tensors" (of an object built from another class the file shows) or
    None (not shown); `receiver` is the object whose `load_state_dict` it is, as written (None for a
    call of a function), for the names to speak where the class is not shown."""

    call: cst.Call
    kind: str | None
    receiver: str | None


@dataclass
class LoadReads:
    """What one load's value is read into, in its file.

    `readers`: the calls that read it into a model or use it as one. `rng_only`: every read of it is an
    RNG state setter's argument (a generator's state: CPU tensors). `returned_by`: the function that
    hands it back, where it does. `fed_by_caller`: a call of that function in this file puts its value
    into a `load_state_dict` (`net.load_state_dict(load_from_pth(url))`). `handed`: the calls of other
    files' functions it is handed to, [callee as written, place, keyword], which only the project's
    index can answer. `names`: what names the load where nothing above shows what it holds: the path
    as written, the name it is loaded into."""

    readers: list[Reader] = field(default_factory=list)
    rng_only: bool = False
    returned_by: cst.FunctionDef | None = None
    fed_by_caller: bool = False
    handed: list[list] = field(default_factory=list)
    names: list[str] = field(default_factory=list)


def load_reads(model: "SemanticModel", call: cst.Call, source: cst.BaseExpression) -> LoadReads:
    """What the value of `call`, a load of the file `source`, is read into (`LoadReads`). The uses
    are followed in order of weight and stop at the first that shows something: the call it is an
    argument of, then the reads of the name it is bound to, then the function that hands it back."""
    tree = model.tree
    found = LoadReads(names=[code(source)])
    target = None
    parent = tree.parent_of(call)
    loaded: cst.BaseExpression = call
    while isinstance(parent, cst.Subscript) and parent.value is loaded:  # `torch.load(p)["params"]`: a part of it
        loaded, parent = parent, tree.parent_of(parent)
    if isinstance(parent, cst.Arg):
        outer = tree.parent_of(parent)
        if isinstance(outer, cst.Call) and method_name(outer) in ("load_state_dict", "load_checkpoint"):
            found.readers.append(_reader(model, outer))
        elif isinstance(outer, cst.Call) and (model.imports.resolve(outer.func) or "") in RNG_STATE_SETTERS:
            found.rng_only = True  # a random number generator's state: CPU tensors, no device
            return found
        elif isinstance(outer, cst.Call) and _loads_argument(model, outer, parent, found.handed):
            found.readers.append(_reader(model, outer))  # `load_state(net, torch.load(p))`
    if isinstance(parent, cst.Assign) and len(parent.targets) == 1:
        target = parent.targets[0].target
    elif isinstance(parent, cst.AnnAssign):  # `model: Forecaster = torch.load(f)`
        target = parent.target
    if target is not None:
        found.names.append(code(target))
    modules: list[cst.Call] = []  # the calls that use it as a module
    uses = _readers(model, target.value, parent, modules, found.handed) if isinstance(target, cst.Name) else None
    found.readers += [Reader(use, "model", None) if use in modules else _reader(model, use) for use in uses or ()]
    if found.readers:
        return found
    if uses == [] and target is not None:
        found.rng_only = True  # read only by RNG state setters
        return found
    scope = model.scope_of(call)
    if isinstance(scope, cst.FunctionDef) and _returned(model, call, parent, target, scope):
        found.returned_by = scope
        found.fed_by_caller = any(fed_to_load_state_dict(model, site) for site in model.call_sites().get(scope, ()))
    return found


def _reader(model: "SemanticModel", call: cst.Call) -> Reader:
    """`call`, a `load_state_dict` (or a call that puts its argument into one), with what its receiver holds."""
    receiver = call.func.value if isinstance(call.func, cst.Attribute) else None
    return Reader(call, _state_kind(model, receiver, call), code(receiver) if receiver is not None else None)


def _returned(
    model: "SemanticModel", call: cst.Call, parent: cst.CSTNode, target: cst.BaseExpression | None, scope: cst.FunctionDef
) -> bool:
    """Does the function hand back the loaded value (`return torch.load(p)`, `return ckpt[key] if key
    in ckpt else ckpt`)?"""
    if type(parent) is cst.Return:
        return True
    if type(target) is not cst.Name:
        return False
    return any(
        r.value is not None and model.scope_of(r) is scope and target.value in names_in(r.value)
        for r in model.tree.descendants(scope, cst.Return)
    )


def _readers(
    model: "SemanticModel", name: str, binding: cst.CSTNode, modules: list[cst.Call], handed: list[list], depth: int = 0
) -> list[cst.Call] | None:
    """The calls that read `name` (bound at `binding`), or what is made of it later in its scope,
    into a state dict: a `load_state_dict`, an argument `state_dict=`, a call of a function of this
    file that puts it there (`load_state(net, ckpt["net"])`; calls of other files' functions go to
    `handed`, `_loads_argument`); [] where every read of it is
    an RNG state setter's argument (`torch.set_rng_state(state["cpu"])`); None where neither shows.
    Those that run it or call a method only a module has (`model.eval()`) go to `modules` too.
    What is made of it: a name bound to an expression that reads it (`sd = ckpt["model"]`), a loop
    target over one (`for k, v in ckpt.items()`), a dict it is stored in or updates
    (`new_sd[k[7:]] = v`, `model_dict.update(loaded)`)."""
    tree = model.tree
    scope = model.scope_of(binding)
    readers: list[cst.Call] = []
    made: list[tuple[str, cst.CSTNode]] = []  # (a name made of it, where)
    setters = 0
    for call in tree.descendants(scope, cst.Call):
        if not tree.is_after(call, binding):
            continue
        func = call.func
        receiver = func.value if type(func) is cst.Attribute else func
        if type(receiver) is cst.Name and receiver.value == name and (func is receiver or func.attr.value in _MODULE_ONLY):  # type: ignore[attr-defined]
            modules.append(call)  # run or used as a module (`model.eval()`): a pickled model
            continue
        if not any(name in names_in(a.value) for a in call.args):
            continue
        if method_name(call) == "load_state_dict" or any(
            a.keyword is not None and a.keyword.value in STATE_DICT_KEYWORDS and name in names_in(a.value) for a in call.args
        ):
            readers.append(call)
        elif (model.imports.resolve(func) or "") in RNG_STATE_SETTERS:
            setters += 1
        elif any(name in names_in(a.value) and _loads_argument(model, call, a, handed) for a in call.args):
            readers.append(call)
        elif type(func) is cst.Attribute and func.attr.value == "update" and type(func.value) is cst.Name:
            made.append((func.value.value, call))
    for node in tree.descendants(scope, cst.Assign):
        if tree.is_after(node, binding) and name in names_in(node.value):
            made += [(bound, node) for target in node.targets for bound in stored_names(target.target)]
    for loop in tree.descendants(scope, cst.For):
        if tree.is_after(loop.target, binding) and name in names_in(loop.iter):
            made += [(bound, loop.target) for bound in stored_names(loop.target)]
    for other, where in made if depth < _FLOW_DEPTH else ():
        if other != name:
            readers += _readers(model, other, where, modules, handed, depth + 1) or ()
    if readers or modules:
        return readers + modules
    reads = [n for n in tree.descendants(scope, cst.Name) if n.value == name and tree.is_after(n, binding)]
    return [] if setters and len(reads) == setters and not made else None


def _loads_argument(model: "SemanticModel", call: cst.Call, arg: cst.Arg, handed: list[list]) -> bool:
    """Does `call` hand `arg` to a parameter that its callee, a function or method of this file
    (`load_state(net, ckpt)`, `self.load_weights(w)`, `net.load_weights(w)` where `net = Net()`),
    puts into a `load_state_dict`? A callee of another file (an imported function, a method of
    an imported class the receiver is made from, as `.method` a method of an object whose class
    the file does not show) goes to `handed`, [callee as written, place, keyword], for the
    project's index to answer."""
    positional = [a for a in call.args if a.keyword is None and not a.star]
    place = positional.index(arg) if arg in positional else None
    keyword = arg.keyword.value if arg.keyword is not None else None
    if place is None and keyword is None:
        return False
    func = call.func
    callees = model.named_callees(call)
    written = dotted(func)
    shown = True  # the file shows what the callee is
    if not callees and type(func) is cst.Attribute:
        made = {dotted(v.func) if type(v) is cst.Call else None for v in model.provenance.instance_values(func.value, call)}
        shown = bool(made)
        cls = made.pop() if len(made) == 1 else None
        local = model.classes_named(cls) if cls else []
        callees = [m for c in local for m in model.methods_of(c, func.attr.value)]
        written = f"{cls}.{func.attr.value}" if cls and not local else written
    if callees:
        return any(i == place or n == keyword for f in callees for i, n in state_dict_parameters(model, f))
    imported = model.imports.aliases.keys() | model.imports.relative.keys()
    if written and written.partition(".")[0] in imported:
        handed.append([written, place, keyword])
    elif type(func) is cst.Attribute and not shown:
        handed.append([f".{func.attr.value}", place, keyword])  # an object of a class out of sight: a method of that name
    return False


def _state_kind(model: "SemanticModel", receiver: cst.BaseExpression | None, reader: cst.Call) -> str | None:
    """What the object whose `load_state_dict` is `reader` holds, by the class the file constructs it
    from: "host" (an LR scheduler, a GradScaler), "tensors" (another class), None (not shown)."""
    if receiver is None:
        return None
    made = model.provenance.constructed_class(receiver, reader)
    if made:
        return "host" if made.startswith(HOST_STATE_CLASSES) else "tensors"
    return None
