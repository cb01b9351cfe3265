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

from memlint.analysis.facts.checkpoints import state_dict_parameters
from memlint.analysis.library import (
    HOST_STATE_CLASSES,
    MODULE_API_METHODS,
    MODULE_WRAPPERS,
    RNG_STATE_SETTERS,
    STATE_DICT_KEYWORDS,
    TENSOR_METHODS,
)
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
    hands it back, where it does (its calls in this file are followed: `readers` holds what they read
    it into, `net.load_state_dict(load_from_pth(url))`). `handed`: the calls of other
    files' functions it is handed to, [callee as written, place, keyword], which only the project's
    index can answer. `names`: what names the load where nothing above shows what it holds: the path
    as written, the name it is loaded into."""

    readers: list[Reader] = field(default_factory=list)
    rng_only: bool = False
    returned_by: cst.FunctionDef | None = None
    handed: list[list] = field(default_factory=list)
    names: list[str] = field(default_factory=list)


class _Held(NamedTuple):
    """A place that holds a loaded value (or what is made of it): a variable of a function, whose reads
    after its binding count, or an attribute of `self`, whose reads in every method of its class count
    (`self.checkpoint = torch.load(p)` in `__init__`, `self.model.load_state_dict(self.checkpoint)` in
    `restore`)."""

    name: str
    attribute: bool
    scope: cst.CSTNode  # the function of a variable, the class of an attribute
    binding: cst.CSTNode | None  # a variable's binding; None for an attribute
    built: bool = False  # what a call built from the value (`Net(**ckpt["config"])`), not the value itself


def load_reads(model: "SemanticModel", call: cst.Call, source: cst.BaseExpression) -> LoadReads:
    """What the value of `call`, a load of the file `source`, is read into (`LoadReads`). The uses
    are followed in order of weight and stop at the first that shows something: the call it is an
    argument of and the reads of the places it is stored in, then, where its function hands it back,
    what that function's calls in this file do with their value."""
    found = LoadReads(names=[code(source)])
    parent, target = _destination(model, call)
    if target is not None:
        found.names.append(code(target))
    uses = _value_uses(model, call, found.handed)
    if uses is None:
        found.rng_only = True  # a random number generator's state: CPU tensors, no device
        return found
    found.readers += uses
    if found.readers:
        return found
    scope = model.scope_of(call)
    if isinstance(scope, cst.FunctionDef) and _returned(model, parent, target, scope):
        found.returned_by = scope
        found.readers += _callers_uses(model, scope, found.handed, 0)
    return found


def value_read_into_model(model: "SemanticModel", call: cst.Call) -> bool:
    """Is the value of `call` (a call of a function that loads a checkpoint, `load_from_pth(url)`), or
    what this file makes of it, read into a model: a `load_state_dict` of anything but an LR
    scheduler or a GradScaler, or used as a module?"""
    uses = _value_uses(model, call, [])
    return bool(uses) and any(use.kind != "host" for use in uses)


def _destination(model: "SemanticModel", call: cst.Call) -> tuple[cst.CSTNode, cst.BaseExpression | None]:
    """The node the value of `call` (or a part of it, `torch.load(p)["params"]`) goes to, and the
    target it is assigned to there (None where it is not assigned)."""
    tree = model.tree
    parent = tree.parent_of(call)
    loaded: cst.BaseExpression = call
    while isinstance(parent, cst.Subscript) and parent.value is loaded:  # `torch.load(p)["params"]`: a part of it
        loaded, parent = parent, tree.parent_of(parent)
    if isinstance(parent, cst.Assign) and len(parent.targets) == 1:
        return parent, parent.targets[0].target
    if isinstance(parent, cst.AnnAssign):  # `model: Forecaster = torch.load(f)`
        return parent, parent.target
    return parent, None


def _value_uses(model: "SemanticModel", call: cst.Call, handed: list[list]) -> list[Reader] | None:
    """The readers of the value of `call`: the call it is an argument of, where that reads it into a
    model, and those that read the places it is stored in (`_readers`); None where every read of it
    is an RNG state setter's argument."""
    tree = model.tree
    parent, target = _destination(model, call)
    readers: list[Reader] = []
    if isinstance(parent, cst.Arg):
        outer = tree.parent_of(parent)
        if isinstance(outer, cst.Call) and method_name(outer) in ("load_state_dict", "load_checkpoint"):
            readers.append(_reader(model, outer))
        elif isinstance(outer, cst.Call) and (model.imports.resolve(outer.func) or "") in RNG_STATE_SETTERS:
            return None
        elif isinstance(outer, cst.Call) and _loads_argument(model, outer, parent, handed):
            readers.append(_reader(model, outer))  # `load_state(net, torch.load(p))`
    places = _places(model, target, parent) if target is not None else []
    modules: list[cst.Call] = []  # the calls that use it as a module
    every = [_readers(model, place, modules, handed) for place in places]
    for uses in every:
        readers += [Reader(use, "model", None) if use in modules else _reader(model, use) for use in uses or ()]
    if not readers and every and all(uses == [] for uses in every):
        return None  # read only by RNG state setters
    return readers


def _callers_uses(model: "SemanticModel", func: cst.FunctionDef, handed: list[list], depth: int) -> list[Reader]:
    """The readers of what the calls of `func` in this file return (`states = load_all(p)` then
    `model.load_state_dict(states["model"])`), and of what calls of the functions that hand that back
    in turn return."""
    readers: list[Reader] = []
    for site in model.call_sites().get(func, ()):
        readers += _value_uses(model, site, handed) or ()
        caller = model.scope_of(site)
        if not readers and depth < _FLOW_DEPTH and isinstance(caller, cst.FunctionDef) and caller is not func:
            parent, target = _destination(model, site)
            if _returned(model, parent, target, caller):
                readers += _callers_uses(model, caller, handed, depth + 1)
    return readers


def _places(model: "SemanticModel", target: cst.BaseExpression, binding: cst.CSTNode) -> list[_Held]:
    """The places an assignment to `target` at `binding` stores into: `sd`, `k, v`, `new_sd[k]` (the
    dict), `self.checkpoint` (an attribute of the object, in a method of its class)."""
    if type(target) is cst.Name:
        return [_Held(target.value, False, model.scope_of(binding), binding)]
    if type(target) in (cst.Tuple, cst.List):
        return [p for e in target.elements for p in _places(model, e.value, binding)]  # type: ignore[attr-defined]
    if type(target) is cst.Subscript:
        return _places(model, target.value, binding)  # type: ignore[attr-defined]
    if type(target) is cst.Attribute and type(target.value) is cst.Name and target.value.value == "self":
        scope = model.scope_of(binding)
        cls = model.enclosing_class(scope) if isinstance(scope, cst.FunctionDef) else None
        return [_Held(target.attr.value, True, cls, None)] if cls is not None else []
    return []


def _is(held: _Held, expr: cst.CSTNode) -> bool:
    """Is `expr` the place itself (`ckpt`, `self.checkpoint`)?"""
    if held.attribute:
        return (
            type(expr) is cst.Attribute
            and expr.attr.value == held.name
            and type(expr.value) is cst.Name
            and expr.value.value == "self"
        )
    return type(expr) is cst.Name and expr.value == held.name


def _mentions(model: "SemanticModel", held: _Held, expr: cst.CSTNode) -> bool:
    """Does `expr` read the place (`ckpt["model"]`, `strip(self.checkpoint)`)?"""
    if held.attribute:
        return any(_is(held, a) for a in model.tree.descendants(expr, cst.Attribute))
    return held.name in names_in(expr)


def _after(model: "SemanticModel", held: _Held, node: cst.CSTNode) -> bool:
    """Does `node` read what the place holds from the load on: after a variable's binding, anywhere in
    an attribute's class?"""
    return held.binding is None or model.tree.is_after(node, held.binding)


def _reader(model: "SemanticModel", call: cst.Call) -> Reader:
    """`call`, a `load_state_dict` (or a call that puts its argument into one), with what its receiver holds."""
    receiver = call.func.value if isinstance(call.func, cst.Attribute) else None
    return Reader(call, _state_kind(model, receiver, call), code(receiver) if receiver is not None else None)


def _returned(model: "SemanticModel", parent: cst.CSTNode, target: cst.BaseExpression | None, scope: cst.FunctionDef) -> bool:
    """Does the function hand back the loaded value (`return torch.load(p)`, `return ckpt[key] if key
    in ckpt else ckpt`, a dict it is stored in: `states["model"] = torch.load(p)` ... `return states`)?"""
    if type(parent) is cst.Return:
        return True
    places = [p for p in _places(model, target, parent) if not p.attribute] if target is not None else []
    return any(
        r.value is not None and model.scope_of(r) is scope and any(_mentions(model, p, r.value) for p in places)
        for r in model.tree.descendants(scope, cst.Return)
    )


def _built_from(model: "SemanticModel", held: _Held, value: cst.BaseExpression, depth: int) -> bool:
    """Is the place read in `value` as an argument of a call (`Net(**ckpt["config"])`, `len(self.vocab)`),
    so that what `value` holds is what that call built, not the loaded value or a part of it
    (`ckpt["model"]`, `ckpt.get("model")`)? Running what a call built shows no pickled model, except
    where the load itself is handed whole to a wrapper that runs what it is handed (`DataParallel(net)`,
    library table)."""
    if (
        depth == 0
        and type(value) is cst.Call
        and model.imports.resolve(value.func) in MODULE_WRAPPERS
        and any(_is(held, a.value) for a in value.args)
    ):
        return False
    return any(_mentions(model, held, a.value) for c in model.tree.descendants(value, cst.Call) for a in c.args)


def _readers(model: "SemanticModel", held: _Held, modules: list[cst.Call], handed: list[list], depth: int = 0) -> list[cst.Call] | None:
    """The calls that read the place `held`, or what is made of it later, into a state dict: a
    `load_state_dict`, an argument `state_dict=`, a call of a function of this file that puts it
    there (`load_state(net, ckpt["net"])`; calls of other files' functions go to `handed`,
    `_loads_argument`); [] where every read of it is an RNG state setter's argument
    (`torch.set_rng_state(state["cpu"])`); None where neither shows. Those that run it or call a
    method only a module has (`model.eval()`, `self.net.eval()`) go to `modules` too, unless a call
    built it from the value (`_built_from`). What is made of it: a place bound to an expression that reads it (`sd = ckpt["model"]`, `self.checkpoint =
    ckpt`), a loop target over one (`for k, v in ckpt.items()`), a dict it is stored in or updates
    (`new_sd[k[7:]] = v`, `model_dict.update(loaded)`)."""
    tree = model.tree
    readers: list[cst.Call] = []
    made: list[tuple[_Held, ...]] = []  # the places made of it
    setters = 0
    # the nodes that may read it (its name; `self.` and its name): an expression holding none of them does not
    reading = tree.indexes_of(
        (a for a in tree.descendants(held.scope, cst.Attribute) if _is(held, a))
        if held.attribute
        else (n for n in tree.descendants(held.scope, cst.Name) if n.value == held.name)
    )
    for call in tree.descendants(held.scope, cst.Call):
        if not _after(model, held, call):
            continue
        func = call.func
        receiver = func.value if type(func) is cst.Attribute else func
        if not held.built and (_is(held, func) or (_is(held, receiver) and func.attr.value in _MODULE_ONLY)):  # type: ignore[attr-defined]
            modules.append(call)  # run or used as a module (`model.eval()`): a pickled model
            continue
        if not tree.holds_any(call, reading) or not any(_mentions(model, held, a.value) for a in call.args):
            continue
        if method_name(call) == "load_state_dict" or any(
            a.keyword is not None and a.keyword.value in STATE_DICT_KEYWORDS and _mentions(model, held, a.value) for a in call.args
        ):
            readers.append(call)
        elif (model.imports.resolve(func) or "") in RNG_STATE_SETTERS:
            setters += 1
        elif any(_mentions(model, held, a.value) and _loads_argument(model, call, a, handed) for a in call.args):
            readers.append(call)
        elif type(func) is cst.Attribute and func.attr.value == "update":
            made.append(tuple(p._replace(built=held.built) for p in _places(model, func.value, call)))
    for node in tree.descendants(held.scope, cst.Assign):
        if tree.holds_any(node.value, reading) and _after(model, held, node) and _mentions(model, held, node.value):
            built = held.built or _built_from(model, held, node.value, depth)
            made += [tuple(p._replace(built=built) for p in _places(model, target.target, node)) for target in node.targets]
    for loop in tree.descendants(held.scope, cst.For):
        if tree.holds_any(loop.iter, reading) and _after(model, held, loop.target) and _mentions(model, held, loop.iter):
            made.append(tuple(p._replace(built=held.built) for p in _places(model, loop.target, loop.target)))
    for other in (p for places in made for p in places) if depth < _FLOW_DEPTH else ():
        if (other.name, other.attribute) != (held.name, held.attribute):
            readers += _readers(model, other, modules, handed, depth + 1) or ()
    if readers or modules:
        return readers + modules
    reads = [n for n in tree.descendants(held.scope, cst.Name) if n.value == held.name and _after(model, held, n)]
    return [] if setters and not held.attribute and len(reads) == setters and not made else None


def _loads_argument(model: "SemanticModel", call: cst.Call, arg: cst.Arg, handed: list[list]) -> bool:
    """Does `call` hand `arg` to a parameter that its callee, a function or method of this file
    (`load_state(net, ckpt)`, `self.load_weights(w)`, `net.load_weights(w)` where `net = Net()`, the
    constructor of `Trainer(ckpt)`), puts into a `load_state_dict`? A callee of another file (an imported function, a method of
    an imported class the receiver is made from, as `.method` a method of an object whose class
    the file does not show, a name one of its star imports may bring) goes to `handed`, [callee as
    written, place, keyword], for the project's index to answer."""
    positional = [a for a in call.args if a.keyword is None and not a.star]
    place = positional.index(arg) if arg in positional else None
    keyword = arg.keyword.value if arg.keyword is not None else None
    if place is None and keyword is None:
        return False
    func = call.func
    callees = model.named_callees(call)
    written = dotted(func)
    if not callees and written and (local := model.classes_named(written)):  # `Trainer(ckpt)`: its constructor
        callees = [init for cls in local for init in model.methods_of(cls, "__init__")]
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
    if written and (written.partition(".")[0] in imported or star_imported(model, func, call)):
        handed.append([written, place, keyword])
    elif type(func) is cst.Attribute and not shown:
        handed.append([f".{func.attr.value}", place, keyword])  # an object of a class out of sight: a method of that name
    return False


def star_imported(model: "SemanticModel", func: cst.BaseExpression, call: cst.Call) -> bool:
    """May `func`, a name the file neither defines nor binds where `call` runs, come from one of its
    star imports (`from helpers import *`)?"""
    return (
        bool(model.imports.star)
        and type(func) is cst.Name
        and not model.bindings(model.module, func.value)
        and not model.bindings(model.scope_of(call), func.value)
    )


def _state_kind(model: "SemanticModel", receiver: cst.BaseExpression | None, reader: cst.Call) -> str | None:
    """What the object whose `load_state_dict` is `reader` holds, by the class the file constructs it
    from: "host" (an LR scheduler, a GradScaler), "tensors" (another class), None (not shown)."""
    if receiver is None:
        return None
    made = model.provenance.constructed_class(receiver, reader)
    if made:
        return "host" if made.startswith(HOST_STATE_CLASSES) else "tensors"
    return None
