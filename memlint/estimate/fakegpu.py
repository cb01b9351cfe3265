"""One emulated CUDA GPU on a CPU-only machine, for a program run on fake tensors.

What is patched while `FakeGPU` is entered, and why (all restored on exit):

* `FakeTensorMode` (allow_non_fake_inputs): every tensor made is fake, so no
  memory and no time goes into data; shapes and dtypes are exact.
* Tensors stay on the CPU device and the GPU is a set of storages (see
  `tracker`): a `TorchFunctionMode` turns each request for CUDA (`.to("cuda")`,
  `.cuda()`, `device="cuda"` of a factory) into a fake CPU copy marked as
  on the GPU, and a request for the CPU of a GPU tensor into an unmarked copy.
  `FakeTensor.device`/`.is_cuda`/`.get_device()` answer `cuda:0` for marked
  tensors, so `torch.zeros(n, device=x.device)` lands on the GPU too.
* `torch.cuda` and `torch.accelerator`: `is_available()` is True (the program takes
  its GPU path; here it would otherwise be False and the program would train on the
  CPU, with CPU autocast), one device of the chosen GPU's name and memory;
  `synchronize`, `empty_cache`, seeds, `set_device(_index)` do nothing; one stream,
  events that time 0 ms; the memory statistics answer from the tracker. Replaced on
  every build, so a CPU build and a CUDA build with no visible GPU take the same path.
* CUDA autocast is emulated (`autocast`).
* `torch.utils.swap_tensors`: `Module.to()` swaps fake parameters, which
  FakeTensorMode holds weak references to, and swaps a shared (tied) parameter once
  per module that holds it; between fake tensors the swap is `.data =`, which keeps
  the parameter object (and so the tie and the optimizer's reference).
* `DataLoader`: num_workers=0 and pin_memory=False (workers and the pinning
  thread would run outside the fake mode, which is per thread); a map-style data set's
  batch is made with no mode, at host speed (`_fetch_on_the_host`).
* `copy.deepcopy` of a fake tensor clones it (the real one copies storage bytes).
* `Tensor.data_ptr()` of a fake tensor is an address of its storage's own (FakeTensor
  answers 0 for all), plus the view's offset: libraries tell tensors apart by address
  (accelerate maps an optimizer's parameters to FSDP's sharded ones by `data_ptr`; with
  every address 0, all of them became one, and one parameter got optimizer state).
* `torch.backends.cudnn.is_acceptable` is False: on a CUDA build, `nn.LSTM` would
  otherwise flatten its weights with a cuDNN-only op that fake tensors on the CPU device
  cannot run (the RNN computes its shapes the CPU way; what cuDNN's fused kernel holds is
  allocated beside it, `kernels`).
* What reaches the CUDA runtime directly on a CUDA build of torch (the common pip
  wheel, also on a machine with no GPU or with the GPU hidden by
  CUDA_VISIBLE_DEVICES) answers as an idle GPU would: `is_current_stream_capturing`
  (the optimizers' graph-capture check before every step, torch <= 2.11), the
  device context manager, the RNG state, Lightning's cuBLAS workspace clean-up
  (`torch._C._cuda_clearCublasWorkspaces`, which exists only on CUDA builds). On a
  CPU-only build these are guarded by `torch.backends.cuda.is_built()` or `hasattr`
  and never run, which is why only a GPU machine showed them.
* `F.scaled_dot_product_attention` with dropout on the GPU runs with dropout_p=0 on
  the fake CPU tensors: CUDA's fused kernels (flash, memory-efficient, cuDNN) draw
  the dropout inside the kernel and keep only the output, the logsumexp and an RNG
  seed, which is what the CPU's fused kernel keeps without dropout; with dropout the
  CPU takes the math path, which keeps the attention probabilities, the mask and the
  dropped probabilities (B x H x L x L each: +1.8 GiB on a GPT-2 small at seq 512).
  Its output takes the memory layout of the CUDA kernel that would run (`attention`).
* `torch.dropout` on the GPU runs as `native_dropout`, CUDA's fused kernel, which keeps a
  bool mask; the CPU's dropout keeps a mask of the input's dtype.
* Torch functions written in Python (`F.multi_head_attention_forward`) run their body
  with these rules on (a mode is off inside its own handler).
* Activation checkpointing recomputes with these rules on (backward runs with no torch
  function mode; the recomputed tensors must match the saved ones).
* `nn.DataParallel` scatters its inputs to the one fake GPU without `torch._C._scatter`
  (CUDA builds only).
* `GradScaler` always steps (it would read `found_inf.item()`).
* The optimizers take their multi-tensor (foreach) path for fake parameters on the GPU, as
  they do for real ones there: `torch.optim.optimizer._foreach_supported_types` holds
  `FakeTensor`. Otherwise they took the per-parameter path, whose temporaries are one
  parameter's at a time where the GPU's are every parameter's at once (Adadelta on a
  ResNet-18: 18 MiB instead of 87 MiB in the optimizer step).
* `torch.cuda.FloatTensor` and the other legacy typed constructors make GPU tensors, and
  `x.type(torch.cuda.FloatTensor)` moves to the GPU (`legacy_types`): a CPU build has none.
* `torch.compile` returns the function it is given: the prediction is for
  eager execution, and the report says where the program asked for compilation.
* `torch.save` of fake tensors writes no data; `torch.load` in the same run gives back what
  was saved (a data set's processing cache, a reloaded checkpoint), and both are listed
  (`saving`).
* In an evaluation, a small GPU result copied to the host is a real tensor of zeros,
  listed (`scalars`): a host loop then reads it at host speed.
* Calls on small real host tensors run as they are, with no mode (the tracker
  keeps such tensors real); `nn.Parameter` of a real host tensor makes it fake.
* A fake tensor read as a Python value (`item`, `int`, `float`, `bool`,
  `__index__`, formatting) tells the tracker how it is read (`scalars`).
* An evaluation loop (forwards with gradients off of a module that trains) runs
  `EVAL_BATCHES` forwards per input shape; the rest answer the last output of that shape.
  A generation loop (each forward's input one position longer) runs `EVAL_BATCHES`
  forwards and those at a length that repeats; the ones between answer the last output,
  lengthened.
"""

from __future__ import annotations

import contextlib
import itertools
import types
from types import FunctionType

import torch
import torch._dynamo  # noqa: F401 - before Tensor is patched: dynamo checks signatures at import
import torch.backends.cudnn
import torch.nn.functional as F
import torch.nn.parallel.comm
import torch.optim.optimizer as optimizers  # the module: torch.optim deletes its name
import torch.utils
import torch.utils.checkpoint as checkpoint
import torch.utils.data
import torch.utils.data._utils.fetch as data_fetch
from torch._subclasses.fake_tensor import FakeTensor, FakeTensorMode
from torch.overrides import TorchFunctionMode
from torch.utils._pytree import tree_flatten, tree_map_only

from memlint.estimate import attention, autocast, dispatch_key, legacy_types, reductions, scalars
from memlint.estimate.distributed import FakeWorld, World, leave_world
from memlint.estimate.kernels import KernelSide
from memlint.estimate.saving import Saved
from memlint.estimate.tracker import (GPU, HOST_LIMIT, Category, StepTracker, install_sparse_storages, is_evaluation,
                                     user_site)
from memlint.estimate.whatif import WhatIfs

# Forwards an evaluation loop runs on one input shape before the next ones answer the last output.
EVAL_BATCHES = 3

CPU = torch.device("cpu")


def _target(device) -> str | None:
    """'cuda' / 'cpu' for a device argument, None for anything else."""
    if isinstance(device, int) and not isinstance(device, bool):
        return "cuda"
    if isinstance(device, (str, torch.device)):
        try:
            kind = torch.device(device).type
        except RuntimeError:
            return None
        return kind if kind in ("cuda", "cpu") else None
    return None


# Calls that place tensors or that the device rules rewrite: never run as plain host calls.
_DEVICE_FUNCTIONS = {torch.Tensor.to, torch.Tensor.cuda, torch.Tensor.cpu, torch.Tensor.pin_memory,
                     F.scaled_dot_product_attention, torch.dropout, torch._C._nn._parse_to}

# Calls that read a tensor's metadata and run no op, which no rule here changes: most of the calls a
# fake step makes under this mode are these (the tracker's own, the optimizers', autograd's hooks).
# An attribute of a fake tensor (`t.grad`, `t.layout`) is read through its C type's getter (`_GETTER`);
# a few getters are views (`t.T`), so a getter is answered at once only outside a placing call.
_QUERIES = {torch.Tensor.untyped_storage, torch.Tensor._is_view, torch.Tensor.numel, torch.Tensor.element_size,
            torch.Tensor.dim, torch.Tensor.storage_offset, torch.Tensor.stride, torch.Tensor.size,
            torch.Tensor.is_inference, torch.Tensor.is_conj, torch.Tensor.is_neg, torch.Tensor.is_contiguous}
_GETTER = type(torch.Tensor.layout.__get__)

_DISPATCH_CHECKS = ("has_torch_function", "has_torch_function_unary", "has_torch_function_variadic")


def _python_level(func) -> bool:
    return isinstance(func, FunctionType) and func.__module__ == F.__name__


# Tensors made from Python data (`_python_data`): real when made on the host.
_FROM_DATA = {torch.tensor, torch.as_tensor, torch.asarray}


def _python_data(args: tuple) -> bool:
    """Numbers, or lists and tuples of them: data whose tensor costs what the data already does."""
    return bool(args) and all(type(v) in (int, float, bool) for v in _leaves(args[:1], depth=2))


def _host_transform(module: torch.nn.Module, args: tuple, kwargs: dict) -> bool:
    """A module without parameters, buffers or hooks of its own called on small real host tensors."""
    return not (module._forward_hooks or module._forward_pre_hooks or module._parameters or module._buffers
                or module._modules) and _real_host_call(args, kwargs)


def _real_host_call(args: tuple, kwargs: dict) -> bool:
    """A call on small real host tensors only, which runs as it is, with no mode at all: a
    program's host side (nanoGPT's get_batch slices each row with a real index, 400 batches of
    evaluation) makes hundreds of thousands of such calls. The tracker would run them for real
    too (`tracker.HOST_LIMIT`), after looking at each through the dispatcher, far more slowly."""
    if "device" in kwargs:
        return False
    total, found = 0, False
    for item in _leaves((*args, *kwargs.values())):
        if isinstance(item, torch.Tensor):
            if type(item) is not torch.Tensor or item.device.type != "cpu":
                return False
            found, total = True, total + item.numel()
    return found and total <= HOST_LIMIT


# Factories whose size is their `size` argument, or their trailing integers (or one tuple of them).
_SIZED_FACTORIES = {torch.randint: 1, torch.rand: 0, torch.randn: 0, torch.zeros: 0, torch.ones: 0, torch.empty: 0}


def _small_host_factory(func, args: tuple, kwargs: dict) -> bool:
    """A small tensor made on the host from Python values: `torch.tensor([...])` or
    `torch.randint(n, size=(1,))` with no device, which the tracker would make real too
    (`tracker.HOST_LIMIT`) after the dispatcher's detour (forward-forward draws a negative label
    this way for each of 50,000 samples)."""
    if "device" in kwargs or "out" in kwargs:
        return False
    if func in _FROM_DATA:
        return _python_data(args)
    if func not in _SIZED_FACTORIES:
        return False
    size = kwargs.get("size")
    if size is None:
        rest = args[_SIZED_FACTORIES[func]:] if func is not torch.randint else args[-1:]
        size = rest[0] if len(rest) == 1 and isinstance(rest[0], (tuple, list, torch.Size)) else rest
    numel = 1
    for n in size:
        if type(n) is not int:
            return False
        numel *= n
    return numel <= HOST_LIMIT


def _leaves(values, depth: int = 3):
    """The arguments, with lists, tuples and slices opened (`x[i:j, k]`: a tuple of a slice)."""
    for value in values:
        if depth and isinstance(value, (list, tuple)):
            yield from _leaves(value, depth - 1)
        elif depth and isinstance(value, slice):
            yield from _leaves((value.start, value.stop, value.step), depth - 1)
        else:
            yield value


class _Devices(TorchFunctionMode):
    def __init__(self, tracker: StepTracker) -> None:
        super().__init__()
        self.tracker = tracker

    def __torch_function__(self, func, types, args=(), kwargs=None):
        if func in _QUERIES or type(func) is _GETTER and func.__name__ == "__get__" \
                and type(args[0]) is not torch.Tensor and self.tracker.placing is None:
            return func(*args, **(kwargs or {}))  # `_QUERIES`: no rule applies
        kwargs = dict(kwargs or {})
        if func not in _DEVICE_FUNCTIONS and (_real_host_call(args, kwargs) or _small_host_factory(func, args, kwargs)):
            with torch._C._DisableTorchDispatch():  # the tracker and the fake mode: see `_real_host_call`
                return func(*args, **kwargs)
        if func is torch.Tensor.__setitem__ and len(args) == 3 and self.tracker.write_scalar(*args):
            return None
        if func in _FROM_DATA and _target(kwargs.get("device")) == "cpu" and _python_data(args):
            # `torch.as_tensor(mean, device=x.device)` on the host (a transform's constants, per sample)
            with torch._C._DisableTorchDispatch():
                return func(*args, **kwargs)
        if func is torch.Tensor.to:
            return self._to(args[0], args[1:], kwargs)
        if func is torch._C._nn._parse_to:
            # Module.to's parser of its arguments: the device it names is the one `_to` then sees (rewritten like
            # a factory's, `model.to(device=cuda)` answered the CPU and left the parameters off the GPU)
            return func(*args, **kwargs)
        if func is torch.Tensor.cuda:
            return self._to(args[0], (), {"device": GPU, "non_blocking": kwargs.get("non_blocking", False)})
        if func is torch.Tensor.cpu:
            return self._to(args[0], (), {"device": CPU})
        if func is torch.Tensor.pin_memory:
            return args[0]
        if func is torch.device and len(args) == 1 and _target(args[0]) == "cuda" and isinstance(args[0], int):
            return torch.device("cuda", args[0])  # an index is the accelerator's: none on a CPU build
        if func is F.scaled_dot_product_attention and self._on_gpu_arg(args):
            args, kwargs = self._fused_attention(args, kwargs)
            out = self._call(func, args, kwargs)
            mask = args[3] if len(args) > 3 else kwargs.get("attn_mask")
            return attention.efficient_layout(out) if attention.memory_efficient(out, args[:3], mask) else out
        if func is torch.dropout and self._on_gpu_arg(args):
            return self._fused_dropout(*args, **kwargs)
        return self._call(func, args, kwargs)

    def _call(self, func, args: tuple, kwargs: dict):
        placing = None
        if "device" in kwargs:
            target = _target(kwargs["device"])
            if target is not None:
                placing = target == "cuda"
                kwargs["device"] = CPU
        result = autocast.handle(func, args, kwargs, self._cached) if placing is None else None
        if result is not None:
            return result
        if placing is None and self.tracker.placing is None:  # nothing to set: most calls, no context to enter
            return self._reentered(func, args, kwargs) if _python_level(func) else func(*args, **kwargs)
        with self._placing(placing):
            if placing is None and _python_level(func):
                return self._reentered(func, args, kwargs)
            return func(*args, **kwargs)

    def _reentered(self, func, args: tuple, kwargs: dict):
        # A torch function written in Python (F.multi_head_attention_forward) is called here with
        # this mode off, so the ops of its body would skip the device, autocast and attention rules
        # (nn.MultiheadAttention's projections and SDPA). Its body runs with the mode on instead:
        # its own has_torch_function check, the first call it makes, answers False once.
        saved = {name: getattr(F, name) for name in _DISPATCH_CHECKS}
        pending = [True]

        def once(original):
            def check(*a):
                if pending[0]:
                    pending[0] = False
                    return False
                return original(*a)
            return check

        for name, original in saved.items():
            setattr(F, name, once(original))
        try:
            with self:
                return func(*args, **kwargs)
        finally:
            for name, original in saved.items():
                setattr(F, name, original)

    @contextlib.contextmanager
    def _placing(self, placing: bool | None):
        saved, self.tracker.placing = self.tracker.placing, placing
        try:
            yield
        finally:
            self.tracker.placing = saved

    def _on_gpu_arg(self, args: tuple) -> bool:
        return bool(args) and isinstance(args[0], torch.Tensor) and self.tracker.on_gpu(args[0])

    @staticmethod
    def _fused_dropout(input: torch.Tensor, p: float, train: bool) -> torch.Tensor:
        # CUDA's dropout is the fused `native_dropout`, which keeps a bool mask for backward; the
        # CPU's multiplies by a mask of the input's dtype (4x the bytes in fp32).
        if not train or not 0 < p < 1 or input.numel() == 0:
            return torch.dropout(input, p, train)
        return torch.native_dropout(input, p, train)[0]

    @staticmethod
    def _fused_attention(args: tuple, kwargs: dict) -> tuple[tuple, dict]:
        # (query, key, value, attn_mask, dropout_p, ...): see the module's docstring.
        if len(args) > 4:
            return (*args[:4], 0.0, *args[5:]), kwargs
        if "dropout_p" in kwargs:
            kwargs["dropout_p"] = 0.0
        return args, kwargs

    def _evaluation_result(self, t: torch.Tensor) -> torch.Tensor:
        # An evaluation's small result brought to the host (`(pred == target).cpu()`) is read value by
        # value by a host loop (minGPT's adder: 10,000 answers): a real tensor of zeros, answered as
        # its values would be one by one (`scalars`: False, 0), and listed once.
        self.tracker.note_use(scalars.EVAL_COPY, user_site() or "?", 0)
        with torch._C._DisableTorchDispatch(), torch._C.DisableTorchFunction():
            return torch.zeros(t.shape, dtype=t.dtype)

    def _cached(self, t: torch.Tensor) -> None:
        self.tracker.retag(t, Category.CAST)

    def _to(self, t: torch.Tensor, args: tuple, kwargs: dict):
        target = None
        rest = []
        for value in args:
            kind = _target(value)
            if kind is not None:
                target = kind
            elif isinstance(value, torch.Tensor):  # .to(other): its device and dtype
                target = "cuda" if self.tracker.on_gpu(value) else "cpu"
                rest.append(value.dtype)
            else:
                rest.append(value)
        if "device" in kwargs:
            target = _target(kwargs.pop("device")) or target
        if target is None:
            return t.to(*rest, **kwargs)
        on_gpu = self.tracker.on_gpu(t)
        if (target == "cuda") == on_gpu:
            return t.to(CPU, *rest, **kwargs)
        if on_gpu and self.tracker.phase_name == "eval" and t.numel() <= HOST_LIMIT and not rest:
            return self._evaluation_result(t)
        kwargs["copy"] = True
        with self._placing(target == "cuda"):
            return t.to(CPU, *rest, **kwargs)


class FakeGPU:
    """`with FakeGPU(tracker, name, total):` -- the fake run's world."""

    def __init__(self, tracker: StepTracker, name: str = "NVIDIA H100 80GB HBM3", total: int = 80 * 1024**3,
                 batch_size: int | None = None, optimizer: str | None = None, world: World | None = None,
                 whatifs: WhatIfs | None = None) -> None:
        self.tracker = tracker
        self.world = world  # a rank of a distributed job (`distributed`), or one GPU
        tracker.kernel_side = KernelSide(tracker, name)  # cuDNN's workspaces and reserve space, read by the summary
        tracker.reduction_gpu = reductions.gpu_shape(name)  # its reductions' staging buffers
        self.batch_size = batch_size  # what-if: every DataLoader's batch size
        self.optimizer = optimizer  # what-if: "sgd" in place of Adam/AdamW
        self.whatifs = whatifs or WhatIfs()  # what-ifs: --dtype, --checkpointing
        self.name = name
        self.total = total
        self.fake_mode = FakeTensorMode(allow_non_fake_inputs=True)
        self._stack = contextlib.ExitStack()

    def _patch(self, owner, name: str, value) -> None:
        missing = object()
        original = owner.__dict__.get(name, missing) if isinstance(owner, type) else getattr(owner, name, missing)
        setattr(owner, name, value)
        if original is missing:
            self._stack.callback(delattr, owner, name)
        else:
            self._stack.callback(setattr, owner, name, original)

    def current(self) -> int:
        return self.tracker._curr_mem_snap.get(GPU, {}).get("Total", 0)

    def peak(self) -> int:
        return self.tracker._peak_mem.get(GPU, 0)

    def __enter__(self) -> "FakeGPU":
        tracker = self.tracker
        self._patch_tensor(tracker)
        self._patch_cuda()
        original_init = torch.utils.data.DataLoader.__init__

        def loader_init(loader, dataset, *args, **kwargs):
            kwargs.update(num_workers=0, pin_memory=False, persistent_workers=False, prefetch_factor=None)
            if self.batch_size and kwargs.get("batch_sampler") is None:
                args = args[1:]  # a positional batch_size
                kwargs["batch_size"] = self.batch_size
            original_init(loader, dataset, *args, **kwargs)

        self._patch(torch.utils.data.DataLoader, "__init__", loader_init)
        # The real host work of a fake run is small ops (`tracker.HOST_LIMIT`): one thread each. With
        # torch's default of one per core, each waits on the others' spinning (a 73,000-element
        # op: 35 ms with 2 threads on a busy 2-core machine, 1.3 ms with one).
        threads = torch.get_num_threads()
        torch.set_num_threads(1)
        self._stack.callback(torch.set_num_threads, threads)
        self._patch(data_fetch._MapDatasetFetcher, "fetch", _fetch_on_the_host(data_fetch._MapDatasetFetcher.fetch))
        if self.optimizer == "sgd":
            for name in ("Adam", "AdamW"):
                self._patch(torch.optim, name, _SGDInstead)
        self._patch(torch, "compile", _no_compile(tracker))
        Saved(tracker).install(self._patch)
        install_sparse_storages(self._patch)
        dispatch_key.install(self.fake_mode, self._patch)
        self._bound_evaluation(tracker)
        self.whatifs.install(self._patch)
        self._patch(torch.backends.cudnn, "is_acceptable", lambda *a, **k: False)
        self._patch(torch.amp.GradScaler, "_maybe_opt_step", _always_step)
        # in place: DTensor's import appends itself to the same list
        optimizers._foreach_supported_types.append(FakeTensor)
        self._stack.callback(optimizers._foreach_supported_types.remove, FakeTensor)
        original_clear = torch.clear_autocast_cache

        def clear_autocast_cache() -> None:
            autocast.clear_cache()
            original_clear()

        self._patch(torch, "clear_autocast_cache", clear_autocast_cache)
        self._stack.enter_context(self.fake_mode)
        self._stack.enter_context(tracker)
        devices = _Devices(tracker)
        self._patch_recomputation(devices)
        tracker.kernel_side.install()
        self._stack.callback(tracker.kernel_side.remove)
        if self.world is not None:
            FakeWorld(self.world, tracker, devices).install(self._patch)
            self._stack.callback(leave_world)
        self._stack.enter_context(devices)
        self._stack.callback(autocast.clear_cache)
        return self

    def __exit__(self, *exc) -> None:
        self._stack.close()

    def _patch_recomputation(self, devices: "_Devices") -> None:
        # Backward runs with no torch function mode, so activation checkpointing would recompute
        # without the device, autocast, dropout and attention rules, and its check that the
        # recomputed tensors match the saved ones fails: recomputation runs with the mode on.
        frame_init = checkpoint._CheckpointFrame.__init__

        def init(frame, recompute_fn, *args, **kwargs):
            def recompute(*inputs):
                with devices:
                    return recompute_fn(*inputs)
            frame_init(frame, recompute, *args, **kwargs)

        self._patch(checkpoint._CheckpointFrame, "__init__", init)
        reentrant_backward = checkpoint.CheckpointFunction.backward

        def backward(ctx, *grads):
            with devices:
                return reentrant_backward(ctx, *grads)

        self._patch(checkpoint.CheckpointFunction, "backward", staticmethod(backward))

    def _patch_tensor(self, tracker: StepTracker) -> None:
        plain_device = FakeTensor.device.fget

        def device(t):
            if not tracker.inside and not t.fake_mode.in_kernel_invocation and tracker.on_gpu(t):
                return GPU
            return plain_device(t)

        self._patch(FakeTensor, "device", property(device, FakeTensor.device.fset))
        self._patch(FakeTensor, "is_cuda", property(lambda t: device(t).type == "cuda"))
        self._patch(FakeTensor, "get_device", lambda t: 0 if tracker.on_gpu(t) else -1)
        self._patch(FakeTensor, "__deepcopy__", _deepcopy)
        self._patch(FakeTensor, "data_ptr", _addresses())
        original_swap = torch.utils.swap_tensors

        def swap_tensors(t1, t2):
            # Either side may be weakly referenced (the fake mode's memo, the tracker) and a
            # shared parameter is visited once per module that holds it, the second time with
            # an alias of itself: swapping refuses both, `.data =` keeps the one object.
            if isinstance(t1, FakeTensor) and isinstance(t2, FakeTensor):
                with torch.no_grad():
                    t1.data = t2
                return None
            return original_swap(t1, t2)

        self._patch(torch.utils, "swap_tensors", swap_tensors)
        self._patch_python_values(tracker)
        fake_mode = self.fake_mode
        parameter_new = torch.nn.Parameter.__new__

        def new_parameter(cls, data=None, requires_grad=True):
            # Small host tensors are real (tracker); a parameter made of one is made fake, as
            # large ones are: `.to("cuda")` then keeps the parameter object (tied weights, the
            # optimizer's reference), which a real parameter given a fake value would not.
            if type(data) is torch.Tensor and data.device.type == "cpu":
                data = fake_mode.from_tensor(data)
            return parameter_new(cls, data, requires_grad)

        self._patch(torch.nn.Parameter, "__new__", new_parameter)
        fake_new = FakeTensor.__new__

        def new_fake(cls, *args, **kwargs):
            # A parameter of a fake tensor is that fake tensor (`nn.Parameter` of a tensor subclass), so
            # its class is FakeTensor. Libraries that rebuild a parameter call its class on the new value
            # (accelerate's `set_module_tensor_to_device`, `init_empty_weights`: `type(p)(value,
            # requires_grad=..., **p.__dict__)`), where FakeTensor takes a fake mode first: a tensor
            # there asks for a parameter (the rest is the old one's attributes).
            data = args[0] if args else kwargs.get("data")
            if isinstance(data, torch.Tensor):
                requires_grad = args[1] if len(args) > 1 else kwargs.get("requires_grad", True)
                return torch.nn.Parameter(data, requires_grad)
            return fake_new(cls, *args, **kwargs)

        self._patch(FakeTensor, "__new__", new_fake)

    def _patch_python_values(self, tracker: StepTracker) -> None:
        """A fake value asked for as a Python value says how (`scalars`); formatting one works."""

        def asking(kind: str, original):
            def method(t, *args):
                saved, tracker.scalar_use = tracker.scalar_use, kind
                try:
                    return original(t, *args)
                finally:
                    tracker.scalar_use = saved
            return method

        for name, kind in (("item", scalars.VALUE), ("__int__", scalars.VALUE), ("__float__", scalars.VALUE),
                           ("__index__", scalars.INDEX), ("__bool__", scalars.TRUTH)):
            self._patch(FakeTensor, name, asking(kind, getattr(torch.Tensor, name)))
        plain_format = torch.Tensor.__format__
        as_format = asking(scalars.FORMAT, torch.Tensor.item)

        def format_value(t, spec: str) -> str:
            # Tensor.__format__ formats `item()` only for exact `Tensor`s; a fake one fell through
            # to object.__format__, which refuses any format spec (`f"{loss:.4f}"`).
            if t.dim() == 0:
                return format(as_format(t), spec)
            return plain_format(t, spec)

        self._patch(FakeTensor, "__format__", format_value)

        def element(index) -> bool:
            # A fake 0-d integer tensor without real values, standing for one element of a dimension
            # (not a slice bound, not a boolean or byte mask): torch reads it with `.item()` and selects.
            return (isinstance(index, FakeTensor) and index.dim() == 0 and index not in tracker.shadow
                    and not index.dtype.is_floating_point and not index.dtype.is_complex
                    and index.dtype not in (torch.bool, torch.uint8))

        def elements_answered(key):
            parts = key if type(key) is tuple else (key,)
            if not any(element(p) for p in parts):
                return key
            answered = tuple(tracker.element_index(p) if element(p) else p for p in parts)
            return answered if type(key) is tuple else answered[0]

        plain_getitem, plain_setitem = FakeTensor.__getitem__, FakeTensor.__setitem__
        self._patch(FakeTensor, "__getitem__", lambda t, key: plain_getitem(t, elements_answered(key)))
        self._patch(FakeTensor, "__setitem__",
                    lambda t, key, value: plain_setitem(t, elements_answered(key), value))

        plain_numpy = FakeTensor.numpy

        def to_numpy(t, *args, **kwargs):
            # One value (a loss kept as a NumPy number) is read as `.item()` reads it: an array of its
            # placeholder, and the use listed (`scalars`). Fake data has no bytes for more: that stops.
            if t.numel() != 1:
                return plain_numpy(t, *args, **kwargs)
            saved, tracker.scalar_use = tracker.scalar_use, scalars.NUMPY
            try:
                answer = tracker.placeholder(t)
            finally:
                tracker.scalar_use = saved
            with torch._C._DisableTorchDispatch(), torch._C.DisableTorchFunction():
                return torch.full(t.shape, answer, dtype=t.dtype).numpy(*args, **kwargs)

        self._patch(FakeTensor, "numpy", to_numpy)

    def _patch_cuda(self) -> None:
        cuda = torch.cuda
        props = types.SimpleNamespace(name=self.name, total_memory=self.total, major=9, minor=0,
                                      multi_processor_count=132, is_integrated=False, is_multi_gpu_board=False)
        nothing = lambda *a, **k: None  # noqa: E731
        for name, value in {
            "is_available": lambda: True, "device_count": lambda: 1, "current_device": lambda: 0,
            "is_bf16_supported": lambda *a, **k: True, "is_initialized": lambda: True,
            "get_device_name": lambda *a, **k: self.name, "get_device_properties": lambda *a, **k: props,
            "get_device_capability": lambda *a, **k: (9, 0),
            "set_device": nothing, "synchronize": nothing, "empty_cache": nothing, "ipc_collect": nothing,
            "init": nothing, "_lazy_init": nothing, "manual_seed": nothing, "manual_seed_all": nothing,
            "seed": nothing, "seed_all": nothing,
            "reset_peak_memory_stats": nothing, "reset_max_memory_allocated": nothing,
            "memory_allocated": lambda *a, **k: self.current(), "max_memory_allocated": lambda *a, **k: self.peak(),
            "memory_reserved": lambda *a, **k: self.current(), "max_memory_reserved": lambda *a, **k: self.peak(),
            "mem_get_info": lambda *a, **k: (self.total - self.current(), self.total),
            "memory_summary": lambda *a, **k: "",
            "is_current_stream_capturing": lambda: False,
            "_exchange_device": _exchange_device, "_maybe_exchange_device": _exchange_device,
            "get_rng_state": _rng_state, "get_rng_state_all": lambda: [_rng_state()],
            "set_rng_state": nothing, "set_rng_state_all": nothing,
        }.items():
            self._patch(cuda, name, value)
        self._patch(torch.cuda.graphs, "is_current_stream_capturing", lambda: False)
        stream = _Stream()
        for name, value in {
            "current_stream": lambda *a, **k: stream, "default_stream": lambda *a, **k: stream,
            "Stream": _Stream, "Event": _Event, "stream": lambda *a, **k: contextlib.nullcontext(),
            "memory_stats": lambda *a, **k: self.stats(), "get_arch_list": lambda: ["sm_90"],
            "is_tf32_supported": lambda: True,
        }.items():
            self._patch(cuda, name, value)
        self._patch_accelerator(props)
        legacy_types.install(self._patch)
        parse_to = torch._C._nn._parse_to

        def parse_index_as_gpu(*args, **kwargs):
            # `module.to(local_rank)`: an index is the accelerator's, which a CPU build has none of.
            if args and isinstance(args[0], int) and not isinstance(args[0], bool):
                args = (torch.device("cuda", args[0]), *args[1:])
            if isinstance(kwargs.get("device"), int):
                kwargs["device"] = torch.device("cuda", kwargs["device"])
            return parse_to(*args, **kwargs)

        self._patch(torch._C._nn, "_parse_to", parse_index_as_gpu)
        if hasattr(torch._C, "_cuda_clearCublasWorkspaces"):
            self._patch(torch._C, "_cuda_clearCublasWorkspaces", nothing)
        self._patch(torch.nn.parallel.comm, "scatter", _scatter_to_one)


    def _bound_evaluation(self, tracker: StepTracker) -> None:
        # An evaluation loop (nanoGPT's estimate_loss: 2 x 200 batches before step 1) would take
        # minutes of fake forwards that repeat one another. After EVAL_BATCHES forwards of one
        # module on inputs of one shape, the next ones answer the last output: what they would
        # allocate and free is what the ones run did, and the loop's host side still runs.
        # Counted per shape, so that a loop whose shapes alternate (each batch's sequence of a
        # generation loop) is bounded too. A generation loop (minGPT's and nanoGPT's generate: one
        # forward per new token, the input one position longer each time, cropped at the block
        # size) changes shape every forward: after EVAL_BATCHES such forwards, the next ones answer
        # the previous output lengthened by one position, until a length repeats (the crop), whose
        # forwards run again.
        module_call = torch.nn.Module.__call__
        root_call = self.whatifs.root_call(module_call)  # an outermost call, with the what-ifs
        state = {"depth": 0, "runs": {}, "last": {}, "key": None, "previous": None, "growing": 0}
        accumulation = _Accumulation(tracker) if self.world is None else None

        def call(module, *args, **kwargs):
            if _host_transform(module, args, kwargs):
                # a stateless module on real host data (a data set's `Normalize`, per sample): plain
                # host work, no GPU memory to track and nothing to bound
                return module.forward(*args, **kwargs)
            if state["depth"]:
                return self._nested(module_call, state, module, args, kwargs)
            shapes = tuple(tuple(t.shape) if isinstance(t, torch.Tensor) else type(t)
                           for t in tree_flatten((args, kwargs))[0])
            if not is_evaluation(module):
                if not torch.is_grad_enabled() or torch.is_inference_mode_enabled():
                    return self._nested(root_call, state, module, args, kwargs)
                # a training forward ends the loop
                state.update(runs={}, last={}, key=None, previous=None, growing=0)
                if accumulation is None or not module.training:
                    return self._nested(root_call, state, module, args, kwargs)
                answer = accumulation.answer(module, shapes)
                if answer is not None:
                    return answer
                before = {place: id(t) for place, t in _kept_tensors(module).items()}  # no reference: one would keep it
                out = self._nested(root_call, state, module, args, kwargs)
                accumulation.ran(module, shapes, out, before)
                return out
            # what is remembered of an output is its shapes (_Spec), never the output: a reference
            # held here would keep its memory in the prediction
            key = (id(module), module.training, shapes)
            if state["runs"].get(key, 0) >= EVAL_BATCHES:
                tracker.record.eval_skipped += 1
                state.update(key=key, previous=state["last"][key], growing=0)
                return _fresh(state["last"][key])
            grown = _grown_by_one(state["key"], key)
            state["growing"] = state["growing"] + 1 if grown else 0
            if grown and state["growing"] > EVAL_BATCHES:
                tracker.record.eval_skipped += 1
                state.update(key=key, previous=_lengthened(state["previous"], *grown))
                return _fresh(state["previous"])
            state["runs"][key] = state["runs"].get(key, 0) + 1
            tracker.record.eval_forwards += 1
            out = self._nested(root_call, state, module, args, kwargs)
            state["last"][key] = tree_map_only(torch.Tensor, _Spec, out)
            state.update(key=key, previous=state["last"][key])
            return out

        self._patch(torch.nn.Module, "__call__", call)

    @staticmethod
    def _nested(module_call, state: dict, module, args: tuple, kwargs: dict):
        state["depth"] += 1
        try:
            return module_call(module, *args, **kwargs)
        finally:
            state["depth"] -= 1

    def _patch_accelerator(self, props) -> None:
        # The device-generic API answers for the one fake GPU. Every call is replaced, on any build:
        # on a CPU build there is no accelerator at all, and on a CUDA build with no visible GPU
        # `set_device_index` and friends reach the driver ("no CUDA-capable device is detected").
        accelerator = getattr(torch, "accelerator", None)
        if accelerator is None:  # torch < 2.6
            return
        nothing = lambda *a, **k: None  # noqa: E731
        capability = {"major": props.major, "minor": props.minor}
        for name, value in {
            "is_available": lambda: True, "current_accelerator": lambda check_available=False: torch.device("cuda"),
            "device_count": lambda: 1, "current_device_index": lambda: 0, "current_device_idx": lambda: 0,
            "set_device_index": nothing, "set_device_idx": nothing,
            "device_index": lambda device, /: contextlib.nullcontext(),
            "synchronize": nothing, "empty_cache": nothing, "empty_host_cache": nothing,
            "get_device_capability": lambda *a: capability,
            "current_stream": lambda *a: _Stream(), "set_stream": nothing,
            "memory_allocated": lambda *a: self.current(), "max_memory_allocated": lambda *a: self.peak(),
            "memory_reserved": lambda *a: self.current(), "max_memory_reserved": lambda *a: self.peak(),
            "memory_stats": lambda *a: self.stats(), "get_memory_info": lambda *a: (self.total - self.current(), self.total),
            "reset_peak_memory_stats": nothing, "reset_accumulated_memory_stats": nothing,
        }.items():
            self._patch(accelerator, name, value)

    def stats(self) -> dict[str, int]:
        """The keys of `torch.cuda.memory_stats()` that programs read, from the tracker."""
        return {"allocated_bytes.all.current": self.current(), "allocated_bytes.all.peak": self.peak(),
                "reserved_bytes.all.current": self.current(), "reserved_bytes.all.peak": self.peak(),
                "active_bytes.all.current": self.current(), "active_bytes.all.peak": self.peak(),
                "num_alloc_retries": 0, "num_ooms": 0}


class _Stream:
    """A CUDA stream of the fake GPU: one stream, every operation already done."""

    cuda_stream = 0
    priority = 0

    def __init__(self, *args, **kwargs) -> None:
        self.device = torch.device("cuda", 0)

    def is_capturing(self) -> bool:  # the optimizers' graph-capture check
        return False

    def wait_stream(self, other) -> None:
        pass

    def wait_event(self, event) -> None:
        pass

    def record_event(self, event=None):
        return event or _Event()

    def synchronize(self) -> None:
        pass

    def query(self) -> bool:
        return True

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        pass


class _Event(_Stream):
    """A CUDA event of the fake GPU: timings are 0 ms (a fake run measures no time)."""

    def record(self, stream=None) -> None:
        pass

    def wait(self, stream=None) -> None:
        pass

    def elapsed_time(self, end) -> float:
        return 0.0


class _SGDInstead(torch.optim.SGD):
    """--optimizer sgd: what the program's Adam or AdamW would take as plain SGD (no state)."""

    def __init__(self, params, lr=1e-3, *args, **kwargs):
        super().__init__(params, lr=lr if isinstance(lr, float) else 1e-3)


class _Accumulation:
    """Gradient accumulation's micro-steps (nanoGPT's GPT-2 config: 40 forwards and backwards per
    optimizer step). From the third forward of one module on inputs of one shape since the last
    optimizer step, when the backward of each of the two before it has run, a micro-step holds what
    the second held (the gradients exist from the first on): its forward answers fresh tensors of
    the output's shapes, leaves that the program's backward reaches at once. Not in a distributed
    run, where the last micro-step's backward synchronizes the gradients. What the forward keeps on
    the module as well as returning (llama2.c's `self.last_loss`, which the program differentiates
    instead of the output) is answered the same way, so that no answer leaves the last run's
    tensor, whose graph the program already differentiated, in its place."""

    def __init__(self, tracker: StepTracker) -> None:
        self.tracker = tracker
        self.key: tuple | None = None
        self.backwards: list[list[bool]] = []  # per forward run since the key was set: its backward ran
        self.spec = None  # the last output, as _Spec leaves
        self.kept: list[tuple[torch.nn.Module, str, _Spec]] = []  # what the last forward kept on its modules
        self.anchor = None  # what the answers hang from in the graph: their backward ends there, with no gradient

    def answer(self, module, shapes: tuple):
        if (id(module), shapes, self.tracker.record.steps) != self.key or len(self.backwards) < 2 \
                or not all(ran[0] for ran in self.backwards[-2:]):
            return None
        self.tracker.record.micro_steps_answered += 1
        if self.anchor is None:
            self.anchor = torch.zeros((), requires_grad=True)  # on the host: nothing on the GPU
        for owner, name, spec in self.kept:
            setattr(owner, name, _Answered.apply(self.anchor, spec, self.tracker))
        return tree_map_only(_Spec, lambda spec: _Answered.apply(self.anchor, spec, self.tracker), self.spec)

    def ran(self, module, shapes: tuple, out, before: dict) -> None:
        key = (id(module), shapes, self.tracker.record.steps)
        if key != self.key:
            self.key, self.backwards = key, []
        # the graph tensors this forward set on the module or its submodules (a new object under a name)
        kept = {place: t for place, t in _kept_tensors(module).items()
                if t.grad_fn is not None and before.get(place) != id(t)}
        ran = [False]
        for t in [*tree_flatten(out)[0], *kept.values()]:
            if isinstance(t, torch.Tensor) and t.grad_fn is not None:
                t.grad_fn.register_prehook(lambda grads, ran=ran: ran.__setitem__(0, True))
        self.backwards.append(ran)
        self.spec = tree_map_only(torch.Tensor, _Spec, out)  # shapes only: no reference to the output
        self.kept = [(owner, name, _Spec(t)) for (owner, name), t in kept.items()]


def _kept_tensors(module: torch.nn.Module) -> dict[tuple[torch.nn.Module, str], torch.Tensor]:
    """The tensors that `module` and its submodules hold as plain attributes (neither parameters
    nor buffers, which live in their own tables): (owner, name) -> tensor."""
    return {(owner, name): value for owner in module.modules() for name, value in vars(owner).items()
            if isinstance(value, torch.Tensor)}


class _Spec:
    def __init__(self, t: torch.Tensor) -> None:
        self.shape, self.dtype = tuple(t.shape), t.dtype
        self.anchor = t.new_empty(0)  # where and what kind of tensor it was, holding no memory


def _fresh(specs):
    """Fresh tensors of the shapes `specs` hold (_Spec leaves), where the forward's outputs were,
    allocated as the forward would allocate them."""
    return tree_map_only(_Spec, lambda spec: spec.anchor.new_empty(spec.shape, dtype=spec.dtype), specs)


class _Answered(torch.autograd.Function):
    """A micro-step's output on the GPU, in the graph as a forward's output is (not a leaf that would
    keep a gradient), whose backward stops at once."""

    @staticmethod
    def forward(ctx, anchor, spec: _Spec, tracker: StepTracker):
        saved, tracker.placing = tracker.placing, True
        try:
            return torch.empty(spec.shape, dtype=spec.dtype)
        finally:
            tracker.placing = saved

    @staticmethod
    def backward(ctx, grad):
        return None, None, None


def _grown_by_one(before: tuple | None, after: tuple) -> tuple[int, int] | None:
    """(old, new) size of the one dimension in which the inputs of the same module's call `after`
    are one longer than those of `before` (keys of `_bound_evaluation`), else None."""
    if before is None or before[:2] != after[:2] or len(before[2]) != len(after[2]):
        return None
    changed = [(old, new) for a, b in zip(before[2], after[2])
               if isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b)
               for old, new in zip(a, b) if old != new]
    plain = all(a == b or isinstance(a, tuple) and isinstance(b, tuple) for a, b in zip(before[2], after[2]))
    if plain and len(changed) == 1 and changed[0][1] == changed[0][0] + 1:
        return changed[0]
    return None


def _lengthened(specs, old: int, new: int):
    """`specs` (_Spec leaves) with each dimension of size `old` made `new`."""
    def lengthen(spec: _Spec) -> _Spec:
        lengthened = _Spec.__new__(_Spec)
        lengthened.shape = tuple(new if n == old else n for n in spec.shape)
        lengthened.dtype, lengthened.anchor = spec.dtype, spec.anchor
        return lengthened

    return tree_map_only(_Spec, lengthen, specs)


def _addresses():
    """`data_ptr` of fake tensors (module docstring): one address a storage, 1 TiB apart."""
    from torch.utils.weak import WeakIdKeyDictionary

    bases = WeakIdKeyDictionary()
    count = itertools.count(1)

    def data_ptr(tensor) -> int:
        storage = tensor.untyped_storage()
        if storage not in bases:
            bases[storage] = next(count) << 40
        return bases[storage] + tensor.storage_offset() * tensor.element_size()

    return data_ptr


def _deepcopy(t, memo):
    # Tensor.__deepcopy__ copies the storage's bytes, which a fake tensor does not have.
    if id(t) in memo:
        return memo[id(t)]
    with torch.no_grad():
        copy = t.clone()
    if isinstance(t, torch.nn.Parameter):
        copy = torch.nn.Parameter(copy, requires_grad=t.requires_grad)
    elif t.requires_grad and t.is_leaf:
        copy.requires_grad_(True)
    memo[id(t)] = copy
    return copy


def _exchange_device(device: int) -> int:
    # `with torch.cuda.device(i):` -- the one fake GPU is always current.
    return -1 if device < 0 else 0


def _rng_state(device: object = "cuda") -> torch.Tensor:
    # The state of the CPU generator stands in for the GPU's: a fake run draws no real numbers.
    # `device` as torch.cuda.get_rng_state takes it (checkpointing passes one on CUDA builds).
    return torch.get_rng_state()


def _scatter_to_one(tensor, devices=None, chunk_sizes=None, dim=0, streams=None, *, out=None):
    # `nn.DataParallel` on the one fake GPU scatters each input to it with `torch._C._scatter`,
    # which only a CUDA build has; to one device the real one returns the input's one chunk, moved.
    return (tensor.chunk(1, dim)[0].to(GPU),)


def _always_step(scaler, optimizer, optimizer_state, *args, **kwargs):
    # The real one skips the step when `found_inf.item()` is non-zero: a fake value has no infs.
    return optimizer.step(*args, **kwargs)


def _fetch_on_the_host(fetch):
    """A map-style data set's batch made with no mode at all, as the program makes it on its host:
    every sample's transforms and the collation are host work, which the modes would only look
    at, call by call (forward-forward's one batch of 50,000 MNIST samples: 6 calls a sample,
    minutes). A data set that reaches for the GPU, or for a fake tensor, fails there (a CPU
    build has no CUDA; a fake tensor has no data) and its batch is made again with the modes on."""
    def fetch_on_the_host(fetcher, index):
        try:
            with torch._C.DisableTorchFunction(), torch._C._DisableTorchDispatch():
                return fetch(fetcher, index)
        except Exception:  # noqa: BLE001 - made again with the rules of the emulated GPU, which report
            return fetch(fetcher, index)

    return fetch_on_the_host


def _no_compile(tracker: StepTracker):
    """`torch.compile` (and `Module.compile`, which calls it) returning what it is given, each place
    that asks listed for the report: the prediction is eager execution's."""
    def no_compile(model=None, **kwargs):
        site = user_site() or "?"
        if site not in tracker.record.compiled:
            tracker.record.compiled.append(site)
        if model is None:
            return lambda fn: fn
        return model

    return no_compile
