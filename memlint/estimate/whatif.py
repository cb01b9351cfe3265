"""What-ifs that change how the program trains, applied while it runs on the fake GPU.

* `--dtype bf16|fp16`: mixed precision. Every outermost module call (the model's forward,
  a loss module) runs under CUDA autocast of that dtype, and the program's own CUDA autocast
  regions take that dtype and are on (one inside another keeps its `enabled=False`): matmuls and convolutions compute in half precision and keep
  half-precision activations for backward, while parameters, gradients and optimizer state
  stay as the program makes them. `--dtype fp32` turns CUDA autocast off, the program's own
  regions included. A model the program casts itself (`model.half()`) stays cast.
* `--checkpointing`: activation checkpointing of the model's repeated blocks, as
  `torch.utils.checkpoint` (non-reentrant) would do it: a block keeps its input for backward
  and recomputes its forward there, instead of keeping every activation inside it. The
  repeated blocks are, in each `nn.ModuleList` / `nn.Sequential`, the children of the class
  that occurs most often (at least twice) among those that hold other modules: a GPT's
  transformer blocks, a ResNet's residual blocks, a ViT's encoder layers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import torch
import torch.utils.checkpoint as checkpoint
from torch.utils.weak import WeakIdKeyDictionary

DTYPES = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32}
_CONTAINERS = (torch.nn.ModuleList, torch.nn.Sequential)


def repeated_blocks(root: torch.nn.Module) -> list[torch.nn.Module]:
    """The blocks `--checkpointing` wraps (see the module's docstring), outermost first; none
    inside another."""
    found: list[torch.nn.Module] = []

    def visit(module: torch.nn.Module) -> None:
        if isinstance(module, _CONTAINERS):
            counts = Counter(type(child) for child in module.children() if _composite(child))
            common = counts.most_common(1)
            kind = common[0][0] if common and common[0][1] >= 2 else None
            for child in module.children():
                if type(child) is kind:
                    found.append(child)
                else:
                    visit(child)
            return
        for child in module.children():
            visit(child)

    visit(root)
    return found


def _composite(module: torch.nn.Module) -> bool:
    """A block: it holds modules, and parameters (not a container of its own, not an activation)."""
    if isinstance(module, (torch.nn.ModuleList, torch.nn.ModuleDict)):
        return False
    return next(module.children(), None) is not None and next(module.parameters(), None) is not None


class WhatIfs:
    """The what-ifs of one run: `install` patches autocast, `root_call` wraps each outermost module
    call; `describe()` gives them as the command line does, `note()` what they did (the blocks
    checkpointed). --batch-size and --optimizer are applied by `fakegpu` itself."""

    def __init__(self, batch_size: int | None = None, optimizer: str | None = None, dtype: str | None = None,
                 checkpointing: bool = False) -> None:
        self.batch_size = batch_size
        self.optimizer = optimizer
        self.dtype_name = dtype
        self.dtype = DTYPES[dtype] if dtype else None
        self.checkpointing = checkpointing
        self.blocks: Counter = Counter()  # class name -> blocks checkpointed
        self._seen = WeakIdKeyDictionary()  # roots looked into, blocks wrapped, autocast regions of ours

    def describe(self) -> str:
        parts = [f"--batch-size {self.batch_size}"] if self.batch_size else []
        parts += [f"--optimizer {self.optimizer}"] if self.optimizer else []
        parts += [f"--dtype {self.dtype_name}"] if self.dtype_name else []
        return " ".join(parts + (["--checkpointing"] if self.checkpointing else []))

    @property
    def active(self) -> bool:
        return self.dtype is not None or self.checkpointing

    def install(self, patch: Callable[[object, str, object], None]) -> None:
        if self.dtype is None:
            return
        region_class = torch.amp.autocast_mode.autocast
        original_init, original_enter, original_exit = region_class.__init__, region_class.__enter__, region_class.__exit__
        target = self.dtype
        program_regions: list[bool] = []  # per region entered: whether it is one of the program's, on

        def init(region, device_type, dtype=None, enabled=True, cache_enabled=None):
            # The program's own CUDA autocast regions (also torch.cuda.amp.autocast) take the what-if's dtype
            # and are on (`autocast(enabled=args.amp)`), but for one made inside another of the program's:
            # an `enabled=False` there keeps a computation in fp32 on purpose.
            if device_type == "cuda":
                if target == torch.float32:
                    enabled, dtype = False, None
                else:
                    enabled, dtype = enabled or not any(program_regions), target
            original_init(region, device_type, dtype, enabled, cache_enabled)

        def enter(region):
            program_regions.append(region.device == "cuda" and region._enabled and region not in self._seen)
            return original_enter(region)

        def exit_(region, *exc):
            program_regions.pop()
            return original_exit(region, *exc)

        patch(region_class, "__init__", init)
        patch(region_class, "__enter__", enter)
        patch(region_class, "__exit__", exit_)

    def root_call(self, module_call: Callable) -> Callable:
        """`module_call` (Module.__call__) for an outermost module call, with the what-ifs."""
        if not self.active:
            return module_call

        def call(module, *args, **kwargs):
            if self.checkpointing and module.training and torch.is_grad_enabled() and module not in self._seen:
                self._wrap_blocks(module)
            if self.dtype is None or self.dtype == torch.float32 or torch.is_autocast_enabled("cuda"):
                return module_call(module, *args, **kwargs)
            region = torch.autocast("cuda", dtype=self.dtype)
            self._seen[region] = True  # the what-if's own region, not the program's
            with region:
                return module_call(module, *args, **kwargs)

        return call

    def _wrap_blocks(self, root: torch.nn.Module) -> None:
        self._seen[root] = True
        for block in repeated_blocks(root):
            if block in self._seen:
                continue
            self._seen[block] = True
            self.blocks[type(block).__name__] += 1
            block.forward = _checkpointed(block.forward, block)

    def note(self) -> str:
        """What --checkpointing found, for the report; '' without it."""
        if not self.checkpointing:
            return ""
        if not self.blocks:
            return "--checkpointing found no repeated blocks (a ModuleList or Sequential of 2 or more alike): nothing checkpointed"
        kinds = ", ".join(f"{count} x {name}" for name, count in self.blocks.most_common())
        return f"--checkpointing: {kinds} checkpointed"


def _checkpointed(forward: Callable, block: torch.nn.Module) -> Callable:
    def run(*args, **kwargs):
        if block.training and torch.is_grad_enabled():
            return checkpoint.checkpoint(forward, *args, use_reentrant=False, **kwargs)
        return forward(*args, **kwargs)

    return run

