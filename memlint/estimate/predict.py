"""Run a training step fake and predict its GPU memory (imports torch)."""

from __future__ import annotations

import importlib
import inspect
import os
import sys
import time
import traceback

import torch

from memlint.estimate import snapshot
from memlint.estimate.distributed import some_ranks
from memlint.estimate.fakegpu import FakeGPU
from memlint.estimate.scalars import FakeValueNeeded
from memlint.estimate.launch import World
from memlint.estimate.sizes import DEFAULT_GPU
from memlint.estimate.summary import summarize, top_modules, workspace_for
from memlint.estimate.tracker import StepTracker, user_site
from memlint.estimate.whatif import WhatIfs


class CannotRunFake(Exception):
    """The program stopped under fake tensors; `str()` is the one line that says where and why."""


def why(exc: BaseException) -> str:
    """One line: where the program stopped and why fake tensors could not go on."""
    site = user_site(traceback.extract_tb(exc.__traceback__)) or "?"
    name = type(exc).__name__
    text = _first_line(exc)
    cause = exc.__cause__ or (None if exc.__suppress_context__ else exc.__context__)
    if cause is not None and not isinstance(exc, FakeValueNeeded):
        # A wrapper's message ("_apply(): Couldn't swap Linear.weight") does not say why: its cause does.
        text = f"{text} (because {type(cause).__name__}: {_first_line(cause)})"
    if len(text) > 200 and not isinstance(exc, FakeValueNeeded):
        text = text[:197] + "..."
    if isinstance(exc, FakeValueNeeded):
        reason = text
    elif name == "DataDependentOutputException":
        reason = f"a value computed from the data is needed ({text}); fake tensors have no data"
    elif name == "DynamicOutputShapeException":
        reason = f"an output's shape depends on the data ({text}); fake tensors have no data"
    elif name == "UnsupportedOperatorException" or "has no fake" in text or "meta" in text and "kernel" in text:
        reason = f"operator without a fake (meta) implementation, e.g. a custom CUDA kernel: {text}"
    elif any(word in text for word in ("data pointer", "numpy", "tolist", "tensor subclasses")):
        reason = f"the program reads the tensor's data, which a fake tensor does not have: {text}"
    else:
        reason = f"{name}: {text}"
    return f"{site}: cannot run fake: {reason}"


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _describe(value) -> str:
    if isinstance(value, torch.Tensor):
        return f"a tensor of shape {tuple(value.shape)}"
    if isinstance(value, (tuple, list)):
        return f"a {type(value).__name__} of ({', '.join(_describe(v) for v in value)})"
    return f"a {type(value).__name__}"


def _scalar(value) -> bool:
    return isinstance(value, torch.Tensor) and value.numel() == 1 and value.is_floating_point()


def _loss(out, batch, loss_fn):
    """The step's loss by the factory contract (`cli.FACTORY_CONTRACT`), or CannotRunFake."""
    if loss_fn is not None:
        loss = loss_fn(out, batch)
        if not _scalar(loss):
            raise CannotRunFake(f"loss_fn(out, batch) returned {_describe(loss)}, not a one-element "
                                "floating-point tensor")
        return loss
    if _scalar(out):
        return out
    loss = out.get("loss") if isinstance(out, dict) else getattr(out, "loss", None)
    if _scalar(loss):
        return loss
    if isinstance(out, (tuple, list)):
        scalars = [v for v in out if _scalar(v)]
        if len(scalars) == 1:
            return scalars[0]
    raise CannotRunFake(f"the model returned {_describe(out)}, in which no loss can be found (a one-element tensor, "
                        "out.loss, out['loss'] or the one one-element tensor of a tuple): give loss_fn(out, batch) "
                        "as the factory's 4th item")


def _call(model, batch):
    if isinstance(batch, dict):
        return model(**batch)
    if isinstance(batch, (tuple, list)):
        return model(*batch)
    return model(batch)


def _resized(batch, size: int):
    """The batch with `size` rows (what-if --batch-size): new fake tensors of the same kind."""
    if isinstance(batch, torch.Tensor):
        return batch.new_empty((size, *batch.shape[1:])) if batch.dim() else batch
    if isinstance(batch, dict):
        return {k: _resized(v, size) for k, v in batch.items()}
    if isinstance(batch, (tuple, list)):
        return type(batch)(_resized(v, size) for v in batch)
    return batch


def step_functions(made, batch_size: int | None = None):
    """(train, eval or None) from what a factory returned."""
    if callable(made) and not isinstance(made, torch.nn.Module) or isinstance(made, dict) and callable(made.get("train")):
        if batch_size:
            raise CannotRunFake("--batch-size needs a factory that returns (model, optimizer, batch), "
                                "not a step function (its batch is out of reach)")
        return (made, None) if callable(made) else (made["train"], made.get("eval"))
    if isinstance(made, dict):
        parts = (made.get("model"), made.get("optimizer"), made.get("batch"), made.get("loss_fn"))
    elif isinstance(made, (tuple, list)) and len(made) in (3, 4):
        parts = (*made, None)[:4]
    else:
        raise TypeError("the factory must return (model, optimizer, batch[, loss_fn]), a dict of those, "
                        "a step function, or {'train': fn, 'eval': fn}")
    model, optimizer, batch, loss_fn = parts
    if batch_size:
        batch = _resized(batch, batch_size)

    def train():
        out = _call(model, batch)
        loss = _loss(out, batch, loss_fn)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)

    def evaluate():
        model.eval()
        with torch.no_grad():
            _call(model, batch)
        model.train()

    return train, evaluate


def factory_location(spec: str) -> tuple[str, int]:
    """The factory's file and line (where an annotation goes); ('', 0) if unknown."""
    module, _, name = spec.partition(":")
    try:
        target = getattr(sys.modules[module], name)
        return os.path.relpath(inspect.getsourcefile(target) or ""), inspect.getsourcelines(target)[1]
    except (KeyError, AttributeError, TypeError, OSError):
        return "", 0


def predict_factory(spec: str, steps: int = 2, gpu: tuple[str, int] = DEFAULT_GPU, eval_step: bool = True,
                    batch_size: int | None = None, optimizer: str | None = None,
                    snapshot_file: str | None = None, world_size: int | None = None, dtype: str | None = None,
                    checkpointing: bool = False) -> dict:
    """Import `module:function`, call it under the fake GPU and run its steps (as rank 0 of
    `world_size` under a fake process group: the factory wraps its model in DDP or FSDP)."""
    world = World(world_size) if world_size else None
    whatifs = WhatIfs(batch_size, optimizer, dtype, checkpointing)
    module_name, _, name = spec.partition(":")
    if not module_name or not name:
        raise CannotRunFake(f"{spec}: expected module:function")
    started = time.perf_counter()
    tracker = StepTracker()
    stopped = ""
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    with FakeGPU(tracker, *gpu, batch_size=batch_size, optimizer=optimizer, world=world, whatifs=whatifs):
        try:
            try:
                module = importlib.import_module(module_name)
            except ImportError as exc:
                raise CannotRunFake(f"{spec}: cannot import {module_name}: {exc}") from None
            factory = getattr(module, name, None)
            if not callable(factory):
                raise CannotRunFake(f"{spec}: {module_name} has no function {name}")
            train, evaluate = step_functions(factory(), batch_size)
            tracker.start_training()
            for _ in range(steps):
                train()
            if eval_step and evaluate is not None:
                tracker.start_eval()
                evaluate()
        except CannotRunFake:
            raise
        except Exception as exc:  # noqa: BLE001 - the program's failure under fake tensors: one line
            stopped = why(exc)
    return finish(tracker, gpu, started, stopped, factory_location(spec), spec, whatifs, snapshot_file, world)


def finish(tracker: StepTracker, gpu: tuple[str, int], started: float, stopped: str,
           location: tuple[str, int], target: str, whatifs: WhatIfs | None = None, snapshot_file: str | None = None,
           world: World | None = None) -> dict:
    record = tracker.record
    labels = [p.label() for p in record.phases]
    workspace = workspace_for(gpu[0], record.matmuls, record.backward_matmuls)
    # where each handle's workspace is taken, when every handle's first matmul ran on the GPU
    workspace_at = list(record.cublas_at.values()) if len(record.cublas_at) == 1 + record.backward_matmuls else []
    if snapshot_file:
        snapshot.write(snapshot.build(record.events, labels, workspace, workspace_at), snapshot_file)
    kernel_side = getattr(tracker, "kernel_side", None)
    if tracker._mod_tracker is not None and record.steps < 1 and not record.modules:
        tracker._keep_modules()
    modules = top_modules([{"module": use.name, "parameters": use.params, "forward_growth": use.forward_growth,
                            "local_peak": use.local_peak} for use in record.modules.get(1, [])])
    summary = summarize(record.events, labels, modules, workspace,
                        {"target": target, "gpu": gpu[0], "capacity": gpu[1], "steps_run": record.steps,
                         "item_placeholders": record.items, "item_site": record.item_site,
                         "scalar_uses": [{"kind": u.kind, "site": u.site, "count": u.count, "answer": u.answer}
                                         for u in record.scalar_uses.values()],
                         "stopped": stopped, "empty_input": record.empty_input,
                         "eval_forwards": record.eval_forwards, "eval_skipped": record.eval_skipped,
                         "micro_steps_answered": record.micro_steps_answered, "compiled": record.compiled,
                         "file": location[0], "line": location[1], "whatif": whatifs.describe() if whatifs else "",
                         "whatif_note": whatifs.note() if whatifs else "",
                         "seconds": round(time.perf_counter() - started, 2), "torch": torch.__version__,
                         "world_size": world.size if world else 1, "rank": world.rank if world else 0,
                         "kernel_side": kernel_side.summary() if kernel_side else {}}, record.streams,
                        workspace_at=workspace_at)
    if world is not None and world.size > 1:
        summary.update(some_ranks(record.events, labels, workspace, record.streams, summary, workspace_at))
    return summary
