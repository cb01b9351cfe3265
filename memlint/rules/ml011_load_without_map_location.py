from __future__ import annotations

import re
from typing import Any

import libcst as cst

from memlint.analysis.library import (
    CHECKPOINT_LOADS,
    HOST_STATE_CLASSES,
    MODULE_API_METHODS,
    RNG_STATE_SETTERS,
    STATE_DICT_KEYWORDS,
    TENSOR_METHODS,
    WEIGHT_DOWNLOADS,
)
from memlint.analysis.syntax.expressions import call_arg, code, method_name, names_in
from memlint.analysis.syntax.imports import dotted
from memlint.analysis.facts.checkpoints import (
    device_save_of_loaded_file,
    downloads_published_weights,
    fed_to_load_state_dict,
    fetches_published_weights,
    file_patterns,
    loads_cpu_saved_file,
    none_on_some_path,
    per_rank_file,
    read_keys,
    saves_from_cpu,
    state_dict_parameters,
    stored_names,
    written_url,
)
from memlint.patterns import is_test_path
from memlint.analysis.facts.ranks import FACT, NAMED, runs_in_several_processes, runs_on_rank_zero_only
from memlint.models import Applicability, Severity
from memlint.rules.base import FixSpec, Rule

TORCH_LOAD = {"torch.load", "torch.serialization.load"}  # the others of CHECKPOINT_LOADS load checkpoints by name
# What a checkpoint (model, optimizer, training state) is called: in the path, the
# name it is loaded into, or the function that loads it.
_CHECKPOINT = re.compile(
    r"ckpt|checkpoint|state_?dict|resume|restore|snapshot|weights|pretrained|optim|model|"
    r"\.pth\b|\.tar\b|\.ckpt\b|best|last|epoch",
    re.IGNORECASE,
)
# RNG states, LR scheduler and GradScaler states, a checkpoint's metadata (step counters, user values
# kept beside the sharded weights): Python numbers and CPU tensors, not weights
# Methods only a module has (not a tensor, a dict or an array): a loaded value they are called on is a pickled model
_MODULE_ONLY = MODULE_API_METHODS - set(TENSOR_METHODS) - {
    "to", "cpu", "cuda", "type", "apply", "share_memory", "requires_grad_", "to_empty", "xpu", "ipu", "compile", "generate",
    "load_state_dict",
}
_FLOW_DEPTH = 3  # the names made of a loaded value, of them, ... that are followed to a `load_state_dict`
_NOT_A_CHECKPOINT = re.compile(r"rng|random_state|buffer|bytesio|metrics|sched|scaler|metadata", re.IGNORECASE)


class LoadWithoutMapLocation(Rule):
    code = "ML011"
    name = "load-without-map-location"
    severity = Severity.WARNING
    summary = "`torch.load` of a checkpoint without `map_location`"
    fix_applicability = Applicability.UNSAFE
    needles = (("load",),)
    what = """
Checks for `torch.load(...)` (and `torch.hub.load_state_dict_from_url`, mmcv's
and mmengine's `load_checkpoint`) without `map_location` that loads a checkpoint
or training state: the result, or a dict made of it, goes to `load_state_dict`
or `state_dict=`, or it is used as a module (`model.eval()`, `model(x)`: a pickled
model), or a save of the project writes the file it names with tensors
that may be on a device. What the result is read into decides, whatever the names
say: a load read only into an LR scheduler or GradScaler built from torch's classes,
or into `torch.set_rng_state`, holds no device tensor. Where nothing in sight
shows what the load holds and only its names do (the path, the name it is loaded
into or the loading function names a checkpoint, model, weights, optimizer or
resume), the finding says so and is shown with `--preview` only, unless a call of
the function that hands the load back, in another file, copies it into a model
(`net.load_state_dict(load_from_pth(url))`).
`load_state_dict_from_url` of torch's published weights (download.pytorch.org,
also through a table of such URLs) loads CPU tensors; of a URL the project does
not write out (one a library hands, `url_map[name]`, or the user gives), where
the weights were saved from is an assumption (`--preview`). `map_location` given in any form (a string, a
device, a lambda, a dict) is fine, unless it is None where the load runs
(`map_location = None`, set to the CPU only when there is no GPU; an object's
setting whose constructor defaults it to None); so are tests, a checkpoint's metadata file,
a load that runs on rank 0 only (`if rank != 0: return`) of checkpoints the
same file saves from the CPU (`FullStateDictConfig(offload_to_cpu=True)`,
`torch.save` of `.cpu()` tensors): a rank is what `dist.get_rank()`, the
launcher's `RANK` variable, `accelerator.process_index`, `trainer.global_rank`
(or `is_main_process`, `is_global_zero`) or a function returning one makes,
through names, attributes and what the file's callers hand a parameter; a test
of a value the file does not show (`args.rank == 0`) is a rank test by its name
alone, and the finding says what it assumed and is shown with `--preview` only;
and a load of a file name that the same
file saves with CPU tensors (`os.path.join(d, "optimizer_state.pt")`, a state
dict taken under `ShardedStateDictConfig(offload_to_cpu=True)`, tensors built
with `device="cpu"` or loaded with `map_location="cpu"`), and a load read only
by keys (`torch.load(path)["params_ema"]`) that the project's checkpoints hold
on the CPU alone: a `torch.save` anywhere in the project writes them from the
CPU (`state_dict[key] = param.cpu()`) and none writes them from a device (a
key the saver computes from a parameter counts as the strings the project
passes it: `param_key=["params", "params_ema"]`), or a library the project
uses writes them so (basicsr's `params`, `params_ema`), and a `torch.load` in a
project that saves checkpoints and every `torch.save` of which writes
nothing on a device (`{k: v.cpu() for k, v in model.state_dict().items()}`):
its checkpoints are the project's own, CPU tensors alone. A project one save
of which writes a state dict as it is keeps the finding, unless the file the
load names is one that only saves of nothing on a device write, by its name:
`f"{d}/model_step_{step}.pt"` where the one save whose file name can be that
(`f"{self.prefix}_{step}.{self.suffix}"`) moves every tensor to the CPU, or
`training_args.bin` where the save of that name writes the parsed command
line (`torch.save(self.args, ...)`, handed `parser.parse_args()`). A name that
says only its extension (`f"{name}.pt"`), or a path the code does not show
(`opts.checkpoint`), links to no save.
A file named for the
process's rank (`f"model_rank{rank}.pt"`) is that rank's own shard: the
message then says it returns to the device it was saved from.

Severity: warning: what happens depends on where the checkpoint was saved,
which the code does not show.
"""
    why = """
Without `map_location`, `torch.load` puts every tensor back on the device it
was saved from. A checkpoint saved from `cuda:0` lands on `cuda:0` in every
process that loads it, whatever its own GPU (pytorch issue 7415): extra memory
on GPU 0, or an out-of-memory error there. And a GPU-saved state dict is first
placed on the GPU, next to the model it is about to be copied into, so the GPU
holds a second copy of the weights while loading (timm issue 72). Loading to
the CPU and letting `load_state_dict` copy costs only host memory.
"""
    example = """
checkpoint = torch.load(args.resume)
model.load_state_dict(checkpoint["model"])
optimizer.load_state_dict(checkpoint["optimizer"])
"""
    use_instead = """
checkpoint = torch.load(args.resume, map_location="cpu")
model.load_state_dict(checkpoint["model"])
optimizer.load_state_dict(checkpoint["optimizer"])
"""

    def visit_Call(self, node: cst.Call) -> None:
        model = self.model
        resolved = model.imports.resolve(node.func) or ""
        where = CHECKPOINT_LOADS.get(resolved)
        loader = model.project.function(node) if where is None and "load" in resolved.lower() else None
        given: cst.BaseExpression | None = None
        if loader is not None and loader.get("loads"):  # a loader of another file of the project
            source = model.project.argument(loader, node, loader["loads"][0])
            given = model.project.argument(loader, node, loader["loads"][1])
            if source is None:
                return
            where = (next(i for i, a in enumerate(node.args) if a.value is source), -1)
        if where is None or len(node.args) <= where[0]:
            return
        if resolved in WEIGHT_DOWNLOADS and type(model.tree.parent_of(node)) is cst.Expr:
            return  # called to download the file, its value dropped
        if given is None and (arg := call_arg(node, where[1], "map_location")) is not None:
            given = arg.value
        # given, unless it is None where the load runs (`None` unless there is no GPU); or maybe in `**kwargs`
        none = none_on_some_path(model, given, node) if given is not None else None
        if (given is not None and none is None) or any(a.star for a in node.args):
            return
        if is_test_path(model.path) or self._xla():
            return
        source = node.args[where[0]].value  # the file
        why = self._checkpoint_reason(node, source) if resolved in TORCH_LOAD else ("a checkpoint", None, {})
        if why is None or (why[0] != "a state dict" and self._saved_here(node, source)):
            return
        reason, assumed, project = why
        saved = device_save_of_loaded_file(model, node) if assumed else None
        if saved is not None:  # the fact: this file writes it with tensors that may be on a device
            assumed = None
        if downloads_published_weights(model, node, source) or (
            resolved in WEIGHT_DOWNLOADS and fetches_published_weights(model, node, source)
        ):
            return  # the file is torch's published weights (fetched here where missing): CPU tensors
        if resolved in WEIGHT_DOWNLOADS and not written_url(model, source, node):  # weights a library or the user names
            assumed = f"the weights at `{code(source)}` were saved from a device"
        rank_zero = runs_on_rank_zero_only(model, node)
        if (rank_zero and rank_zero[0] == FACT and saves_from_cpu(model)) or loads_cpu_saved_file(model, node):
            return  # what this file saved from the CPU (on rank 0, or by its file name): it lands on the CPU
        assumptions = [assumed] if assumed else []
        if rank_zero and rank_zero[0] == NAMED and saves_from_cpu(model):  # rank 0 by a name alone (a default run hides it)
            assumptions.append(f"`{code(rank_zero[1])}` is no test of this process's rank")
        # Read on rank 0 only (or maybe: a test named so), a file this process has just written, or a
        # program of one process: not another rank's checkpoint, or maybe not; this message holds either way.
        own = rank_zero or self._saved_here(node, source) or per_rank_file(model, node) or not runs_in_several_processes(model)
        name = "torch.load" if resolved in TORCH_LOAD else code(node.func)
        without = "without `map_location`" if none is None else f"with `map_location` None {none}".rstrip()
        if own:
            message = f"`{name}` of {reason} {without} puts every tensor back on the device it was saved from"
            hint = 'pass `map_location="cpu"`; a GPU-saved state dict otherwise sits on the GPU next to the model (timm issue 72)'
        else:
            message = f"`{name}` of {reason} {without} makes every rank load it onto the device rank 0 saved it from"
            hint = 'pass `map_location="cpu"` (or the device of this rank); otherwise every rank fills `cuda:0` (pytorch issue 7415)'

        fix = None if given is not None else FixSpec(  # (a value given is the code's to change, not the fix's)
            Applicability.UNSAFE,
            'Load to the CPU (`map_location="cpu"`); `load_state_dict` copies to the model\'s device',
            ((node, _with_map_location(node)),),
        )
        keys = read_keys(model, node) if resolved in TORCH_LOAD else None
        # the project index drops it where the project's checkpoints hold these keys on the CPU alone,
        # or, for a file `torch.load` reads, where every checkpoint the project saves holds CPU tensors
        extra: dict[str, Any] = {"torch_load": True} if resolved in TORCH_LOAD or loader is not None else {}
        # and where only saves that write no device tensor write the file it names (`training_args.bin`)
        files = file_patterns(model, source, node) if extra else None
        if saved is not None:
            hint += f" (line {model.range_of(saved).start.line} saves it with tensors that may be on a device)"
        if assumed:  # no use in sight shows a checkpoint: its names do (a default run hides it)
            extra |= project  # what the project's callers or callees do with it may show it (`ProjectIndex`)
        if assumptions:
            hint += "".join(f" (assumed: {text})" for text in assumptions)
            extra["assumptions"] = assumptions
        self.report(node, message, hint, fix=fix, **extra, **({"keys": keys} if keys else {}), **({"files": files} if files else {}))

    def _checkpoint_reason(self, call: cst.Call, source: cst.BaseExpression) -> tuple[str, str | None, dict[str, Any]] | None:
        """Why this load is a checkpoint, in words, what that rests on where no fact shows it (the
        name that says so), and then what other files may show of it: the top-level function that
        hands it back (`returned_by`), the functions of other files it is handed to (`handed_to`:
        [callee as written, place, keyword]); None where it is none. What the loaded value is read
        into decides first (a `load_state_dict`, also in a function of this file it is handed to, an
        RNG state setter), whatever the names; only where nothing reads it in sight do the path, the
        name it is loaded into and the loading function's name."""
        model = self.model
        tree = model.tree
        texts = [code(source)]
        target = None
        parent = tree.parent_of(call)
        readers: list[cst.Call] = []  # the `load_state_dict`s it feeds
        handed: list[list] = []  # the calls of other files' functions it is handed to
        loaded: cst.BaseExpression = call
        while isinstance(parent, cst.Subscript) and parent.value is loaded:  # `torch.load(p)["params"]`: a part of it
            loaded, parent = parent, tree.parent_of(parent)
        if isinstance(parent, cst.Arg):
            outer = tree.parent_of(parent)
            if isinstance(outer, cst.Call) and method_name(outer) in ("load_state_dict", "load_checkpoint"):
                readers.append(outer)
            elif isinstance(outer, cst.Call) and (model.imports.resolve(outer.func) or "") in RNG_STATE_SETTERS:
                return None  # a random number generator's state: CPU tensors, no device
            elif isinstance(outer, cst.Call) and self._loads_argument(outer, parent, handed):
                readers.append(outer)  # `load_state(net, torch.load(p))`
        if isinstance(parent, cst.Assign) and len(parent.targets) == 1:
            target = parent.targets[0].target
        elif isinstance(parent, cst.AnnAssign):  # `model: Forecaster = torch.load(f)`
            target = parent.target
        if target is not None:
            texts.append(code(target))
        modules: list[cst.Call] = []  # the calls that use it as a module
        uses = self._readers(target.value, parent, modules, handed) if isinstance(target, cst.Name) else None
        if uses is not None:
            readers += uses
        if readers:
            kinds = ["model" if reader in modules else self._state_kind(reader) for reader in readers]
            if all(kind == "host" for kind in kinds):
                return None  # read only into LR schedulers, GradScalers, RNG states: Python numbers
            return ("a model" if "model" in kinds else "a state dict"), None, {}
        if uses == [] and target is not None:
            return None  # read only by RNG state setters
        scope = model.scope_of(call)
        returned = isinstance(scope, cst.FunctionDef) and self._returned(call, parent, target, scope)
        if returned and any(fed_to_load_state_dict(model, site) for site in model.call_sites().get(scope, ())):
            return "a state dict", None, {}  # `net.load_state_dict(load_from_pth(url))` in this file
        if any(_NOT_A_CHECKPOINT.search(t) for t in texts):
            return None  # RNG states, LR scheduler and GradScaler states by their names: Python numbers
        if isinstance(scope, cst.FunctionDef) and "load" in scope.name.value.lower():
            texts.append(scope.name.value)
        for text in texts:
            if (found := _CHECKPOINT.search(text)) is not None:
                # a top-level function that hands it back: its callers in other files may show what it is
                by = scope.name.value if returned and model.tree.parent_of(scope) is model.module else None  # type: ignore[union-attr]
                project = ({"returned_by": by} if by else {}) | ({"handed_to": handed} if handed else {})
                return "a checkpoint", f"`{text}` names a checkpoint (`{found.group(0)}`), not data", project
        return None

    def _returned(self, call: cst.Call, parent: cst.CSTNode, target: cst.BaseExpression | None, scope: cst.FunctionDef) -> bool:
        """Does the function hand back the loaded value (`return torch.load(p)`, `return ckpt[key] if key
        in ckpt else ckpt`)?"""
        tree = self.model.tree
        if type(parent) is cst.Return:
            return True
        if type(target) is not cst.Name:
            return False
        return any(
            r.value is not None and self.model.scope_of(r) is scope and target.value in names_in(r.value)
            for r in tree.descendants(scope, cst.Return)
        )

    def _xla(self) -> bool:
        """XLA code: its checkpoints are written by `xm.save`, which moves every tensor to the CPU. A
        file that imports torch_xla only under a condition (`if is_tpu_available():`) runs on GPUs too."""
        model = self.model
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

    def _saved_here(self, call: cst.Call, source: cst.BaseExpression) -> bool:
        """Read back a scratch file this function has just written (`torch.save(x, p)` ...
        `torch.load(p)`, not into a model): its own tensors, on the devices it means them to be."""
        model = self.model
        tree = model.tree
        path = code(source)
        for save in tree.descendants(model.scope_of(call), cst.Call):
            if tree.order[id(save)] >= tree.order[id(call)]:
                break
            if model.imports.resolve(save.func) in ("torch.save", "torch.serialization.save"):
                target = call_arg(save, 1, "f")
                if target is not None and code(target.value) == path:
                    return True
        return False

    def _readers(
        self, name: str, binding: cst.CSTNode, modules: list[cst.Call], handed: list[list], depth: int = 0
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
        model = self.model
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
            elif any(name in names_in(a.value) and self._loads_argument(call, a, handed) for a in call.args):
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
                readers += self._readers(other, where, modules, handed, depth + 1) or ()
        if readers or modules:
            return readers + modules
        reads = [n for n in tree.descendants(scope, cst.Name) if n.value == name and tree.is_after(n, binding)]
        return [] if setters and len(reads) == setters and not made else None

    def _loads_argument(self, call: cst.Call, arg: cst.Arg, handed: list[list]) -> bool:
        """Does `call` hand `arg` to a parameter that its callee, a function or method of this file
        (`load_state(net, ckpt)`, `self.load_weights(w)`, `net.load_weights(w)` where `net = Net()`),
        puts into a `load_state_dict`? A callee of another file (an imported function, a method of
        an imported class the receiver is made from, as `.method` a method of an object whose class
        the file does not show) goes to `handed`, [callee as written, place, keyword], for the
        project's index to answer."""
        model = self.model
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

    def _state_kind(self, reader: cst.Call) -> str | None:
        """What the object whose `load_state_dict` is `reader` holds: "host" (an LR scheduler, a GradScaler:
        by its class, or, where the file does not show one, by its name), "tensors" (a class the file
        constructs it from that is neither), None (not shown)."""
        model = self.model
        receiver = reader.func.value if isinstance(reader.func, cst.Attribute) else None
        if receiver is None:
            return None
        made = model.provenance.constructed_class(receiver, reader)
        if made:
            return "host" if made.startswith(HOST_STATE_CLASSES) else "tensors"
        return "host" if _NOT_A_CHECKPOINT.search(code(receiver)) else None


def _with_map_location(call: cst.Call) -> cst.Call:
    """`call` with `map_location="cpu"` appended after its last argument."""
    args = list(call.args)
    last = args[-1]
    new_arg = cst.Arg(
        keyword=cst.Name("map_location"),
        value=cst.SimpleString('"cpu"'),
        equal=cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")),
    )
    if isinstance(last.comma, cst.Comma):
        # A trailing comma (often one argument per line): the new argument takes it,
        # and the old last argument gets the separator the others use.
        separator = _separator(call)
        args[-1] = last.with_changes(comma=separator)
        args.append(new_arg.with_changes(comma=last.comma))
    else:
        args[-1] = last.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
        args.append(new_arg)
    return call.with_changes(args=args)


def _separator(call: cst.Call) -> cst.Comma:
    for arg in call.args[:-1]:
        if isinstance(arg.comma, cst.Comma):
            return arg.comma
    if isinstance(call.whitespace_before_args, cst.ParenthesizedWhitespace):
        return cst.Comma(whitespace_after=call.whitespace_before_args)
    return cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
