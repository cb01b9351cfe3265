from __future__ import annotations

import re
from typing import Any

import libcst as cst

from memlint.analysis.library import CHECKPOINT_LOADS, WEIGHT_DOWNLOADS
from memlint.analysis.syntax.expressions import call_arg, code
from memlint.analysis.facts.checkpoint_reads import load_reads
from memlint.analysis.facts.checkpoints import (
    device_save_of_loaded_file,
    device_state_keys,
    downloads_published_weights,
    fetches_published_weights,
    file_patterns,
    loader_arguments,
    loads_cpu_saved_file,
    none_on_some_path,
    per_rank_file,
    read_keys,
    reads_back_own_save,
    saved_by_xla,
    saves_from_cpu,
    written_url,
)
from memlint.patterns import is_test_path
from memlint.analysis.facts.ranks import FACT, NAMED, runs_before_spawning, runs_in_several_processes, runs_on_rank_zero_only
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
model; not what a call of something else computes from a part of it, as a class
a config names: `cls = get_class(cfg._target_)`, `cls(cfg)`), also where it is kept on the object and read so in another method
(`self.state = torch.load(p)`, then `self.model.load_state_dict(self.state["model"])`)
or handed back by a function whose callers read it so; or it is read by keys
that a save of the project writes with state dicts (`{"model": model.state_dict()}`),
or a save of the project writes the file it names with tensors
that may be on a device. What the result is read into decides, whatever the names
say: a load read only into an LR scheduler or GradScaler built from torch's classes,
or into `torch.set_rng_state`, holds no device tensor. Where nothing in sight
shows what the load holds and only its names do (the path, the name it is loaded
into or the loading function names a checkpoint, model, weights, optimizer or
resume), the finding says so and is shown with `--preview` only, unless a call of
the function that hands the load back, in another file, copies it into a model
(`net.load_state_dict(load_from_pth(url))`). A call of a loader of the project
that hands `torch.load` its callers' `map_location` (a parameter that defaults to
None, or the `*args, **kwargs` it forwards) without one is reported at the call.
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
message then says it returns to the device it was saved from, as it does of a
load that the function starting the workers (`torch.multiprocessing.spawn`)
runs before it starts them, once, in the parent process.

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
        loader = loader_arguments(model, node) if where is None and "load" in resolved.lower() else None
        given: cst.BaseExpression | None = None
        keyword = "map_location"  # what a call passes it by
        if loader is not None:  # a loader of the project, which hands `torch.load` the file and `map_location`
            source, given, keyword = loader
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
        if is_test_path(model.path) or saved_by_xla(model):
            return
        source = node.args[where[0]].value  # the file
        keys = read_keys(model, node) if resolved in TORCH_LOAD else None
        # it reads keys that a save of this file writes with state dicts taken as they are
        state_keys = device_state_keys(model) if keys else {}
        saved_key = next((key for key in keys or () if key in state_keys), None)
        why = self._checkpoint_reason(node, source, saved_key is not None) if resolved in TORCH_LOAD else ("a checkpoint", None, {})
        if why is None or (why[0] != "a state dict" and reads_back_own_save(model, node, source)):
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
        # Read on rank 0 only (or maybe: a test named so), a file this process has just written, a program
        # of one process, or the parent before it spawns its workers: not another rank's checkpoint, or
        # maybe not; this message holds either way.
        own = (
            rank_zero
            or reads_back_own_save(model, node, source)
            or per_rank_file(model, node)
            or not runs_in_several_processes(model)
            or runs_before_spawning(model, node)
        )
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
            ((node, _with_map_location(node, keyword)),),
        )
        # the project index drops it where the project's checkpoints hold these keys on the CPU alone,
        # or, for a file `torch.load` reads, where every checkpoint the project saves holds CPU tensors
        extra: dict[str, Any] = {"torch_load": True} if resolved in TORCH_LOAD or loader is not None else {}
        # and where only saves that write no device tensor write the file it names (`training_args.bin`)
        files = file_patterns(model, source, node) if extra else None
        if saved is not None:
            hint += f" (line {model.range_of(saved).start.line} saves it with tensors that may be on a device)"
        if saved_key is not None:
            hint += f" (line {state_keys[saved_key]} saves `{saved_key}` from a state dict that may be on a device)"
        if assumed:  # no use in sight shows a checkpoint: its names do (a default run hides it)
            extra |= project  # what the project's callers or callees do with it may show it (`ProjectIndex`)
        if assumptions:
            hint += "".join(f" (assumed: {text})" for text in assumptions)
            extra["assumptions"] = assumptions
        self.report(node, message, hint, fix=fix, **extra, **({"keys": keys} if keys else {}), **({"files": files} if files else {}))

    def _checkpoint_reason(
        self, call: cst.Call, source: cst.BaseExpression, saved_state: bool
    ) -> tuple[str, str | None, dict[str, Any]] | None:
        """Why this load is a checkpoint, in words, what that rests on where no fact shows it (the
        name that says so), and then what other files may show of it: the top-level function that
        hands it back (`returned_by`), the functions of other files it is handed to (`handed_to`:
        [callee as written, place, keyword]); None where it is none. What the loaded value is read
        into decides first (`load_reads`), whatever the names, then whether it is read by keys that
        a save of this file writes with state dicts (`saved_state`); only where nothing shows it do
        the path, the name it is loaded into and the loading function's name."""
        model = self.model
        reads = load_reads(model, call, source)
        if reads.readers:
            # where the file does not show the class of what it is read into, its name speaks
            kinds = [r.kind or ("host" if r.receiver and _NOT_A_CHECKPOINT.search(r.receiver) else None) for r in reads.readers]
            if all(kind == "host" for kind in kinds):
                return None  # read only into LR schedulers, GradScalers, RNG states: Python numbers
            return ("a model" if "model" in kinds else "a state dict"), None, {}
        if reads.rng_only:
            return None
        if saved_state:
            return "a checkpoint", None, {}
        texts = reads.names
        if any(_NOT_A_CHECKPOINT.search(t) for t in texts):
            return None  # RNG states, LR scheduler and GradScaler states by their names: Python numbers
        scope = model.scope_of(call)
        if isinstance(scope, cst.FunctionDef) and "load" in scope.name.value.lower():
            texts.append(scope.name.value)
        for text in texts:
            if (found := _CHECKPOINT.search(text)) is not None:
                # a top-level function that hands it back: its callers in other files may show what it is
                returned = reads.returned_by
                by = returned.name.value if returned is not None and model.tree.parent_of(returned) is model.module else None
                project = ({"returned_by": by} if by else {}) | ({"handed_to": reads.handed} if reads.handed else {})
                return "a checkpoint", f"`{text}` names a checkpoint (`{found.group(0)}`), not data", project
        return None


def _with_map_location(call: cst.Call, keyword: str) -> cst.Call:
    """`call` with `map_location="cpu"` (passed by `keyword`: a loader's parameter) appended after its last argument."""
    args = list(call.args)
    last = args[-1]
    new_arg = cst.Arg(
        keyword=cst.Name(keyword),
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
