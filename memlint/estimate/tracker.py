"""`StepTracker`: torch's `MemTracker` (torch.distributed._tools.mem_tracker),
taught what a fake run on a CPU-only machine needs.

* Which storages live on the GPU. Fake tensors stay on the CPU device here
  (autograd on a fake CUDA tensor needs CUDA's device guard, which a CPU
  build of torch lacks: the process aborts), so the emulated GPU is a set of
  storages: those made by a call that asked for CUDA (`fakegpu`) and every
  output of an op that read one of them. `FakeTensor.device` reports
  `cuda:0` for them, so the program and the tracker see a CUDA tensor.
* Sparse tensors: a fake one holds no entries, so a real one copied to the GPU gets
  stand-ins of its indices and values, and MemTracker counts a sparse tensor by its parts.
  CUDA's sparse @ dense takes column-major copies of its dense operand and result.
* Where CUDA's kernel allocates its outputs in another order than it returns them (dropout:
  the mask first), they are counted in the kernel's order, which the allocator model sees.
* Two more categories: the autocast cast cache and the step's inputs.
* Which phase (forward, backward, optimizer step) of which step each
  allocation happened in, and every allocation and free on the GPU, in
  order, for the allocator model (`allocator.replay`).
* Host tensors stay real where they can: an op whose tensor inputs are all real
  host tensors, that places nothing on the GPU and whose outputs are small
  (`HOST_LIMIT` elements) runs on real data, so indices drawn on the CPU
  (`torch.randint(len(data) - block, (batch,))`), step counters and metrics
  have their real values, and control flow and shapes follow the program.
* Small GPU tensors made from real host data keep that data beside them (a shadow):
  a copy of a real host tensor to the GPU, a small factory on the GPU, and the result of
  an op whose tensor inputs all have one (up to `HOST_LIMIT` elements in all). So an op
  whose output's shape depends on the values (a boolean mask's selection, `nonzero`: a
  graph's edges without self-loops) gets its real shape, and such a tensor read as a
  Python value, or copied to the host, gives its real value. An in-place op from inputs
  without one drops it.
* A fake value read as a Python value answers a placeholder or stops the run,
  by how it is used (`scalars`), and every use is recorded with where.
* `MemTracker` hooks the gradient of frozen parameters too, which torch refuses:
  only parameters that require grad are hooked.
* `MemTracker` refuses a root module's second forward without a reset: the
  module statistics are kept per step and reset.
"""

from __future__ import annotations

import os
import sys
import threading
import traceback
import weakref
from dataclasses import dataclass, field

import torch
from torch._subclasses.fake_tensor import (DataDependentOutputException, DynamicOutputShapeException, FakeTensor,
                                          unset_fake_temporarily)
from torch.autograd.graph import _get_grad_fn_or_grad_acc
from torch.distributed._tools import mem_tracker, mod_tracker
from torch.distributed._tools.common_utils import get_untyped_storages
from torch.distributed._tools.mem_tracker import MemTracker, _ModState, _RefType, _UpdateType
from torch.distributed.tensor import DTensor
from torch.optim.optimizer import register_optimizer_step_post_hook
from torch.utils._pytree import tree_flatten, tree_map_only
from torch.utils.weak import WeakIdKeyDictionary

from memlint.estimate import reductions, scalars

GPU = torch.device("cuda", 0)
_TORCH_DIR = os.path.dirname(torch.__file__)


class Category(_RefType):
    """MemTracker's categories (same names, so its own code finds them) and ours."""

    PARAM = "Parameter"
    BUFFER = "Buffer"
    GRAD = "Gradient"
    ACT = "Activation"
    TEMP = "Temp"
    OPT = "Optstate"
    OTH = "Other"
    OPT_TMP = "Optimizer temporaries"
    CAST = "Autocast cache"
    COMM = "Communication buffers"
    INPUT = "Input"


@dataclass
class Phase:
    step: int  # 1-based training step; 0 before the first forward
    name: str  # "setup" | "forward" | "backward" | "optimizer step" | "eval"

    def label(self) -> str:
        if self.name in ("setup", "eval"):
            return self.name
        return f"step {self.step} {self.name}"


@dataclass
class ModuleUse:
    name: str
    params: int
    forward_growth: int  # bytes the module's forward left allocated (saved activations and output)
    local_peak: int


@dataclass
class Record:
    """What a tracked run leaves for the report."""

    events: list = field(default_factory=list)  # (sign, key, bytes, category, phase index)
    phases: list[Phase] = field(default_factory=list)
    modules: dict[int, list[ModuleUse]] = field(default_factory=dict)  # step -> modules of that step
    steps: int = 0
    items: int = 0  # fake values the program's own code read as Python values
    item_site: str = ""
    scalar_uses: dict = field(default_factory=dict)  # (kind, site) -> scalars.ScalarUse
    matmuls: bool = False
    empty_input: str = ""  # the first model input with a zero-sized dimension: shape and where
    eval_forwards: int = 0  # evaluation forwards run, and answered from the last one (fakegpu)
    eval_skipped: int = 0
    micro_steps_answered: int = 0  # gradient-accumulation forwards answered from the second (fakegpu)
    compiled: list[str] = field(default_factory=list)  # where the program called torch.compile, run as eager code
    backward_matmuls: bool = False  # backward runs on autograd's device thread: a cuBLAS handle of its own
    cublas_at: dict = field(default_factory=dict)  # backward or not -> event index after its first GPU matmul
    streams: dict = field(default_factory=dict)  # event index -> side stream (1, 2, ...) of an allocation made on one


_PLUMBING = ("/memlint/estimate/", "/torch/utils/_python_dispatch.py", "/torch/_subclasses/", "/torch/overrides.py",
             "/torch/_tensor.py", "/torch/utils/_contextlib.py", "/torch/_dynamo/eval_frame.py", "/torch/_compile.py")


def _library(filename: str) -> bool:
    return filename.startswith(_TORCH_DIR) or "/site-packages/" in filename or filename.startswith(sys.base_prefix)


def _plumbing(filename: str) -> bool:
    return any(part in filename for part in _PLUMBING)


def user_site(stack=None) -> str:
    """`file:line` of the innermost frame outside torch and memlint."""
    for frame in reversed(stack if stack is not None else traceback.extract_stack()):
        name = frame.filename
        if _library(name) or "/memlint/estimate/" in name or name.startswith("<") or name.startswith(sys.prefix):
            continue
        return f"{name}:{frame.lineno}"
    return ""


# The most elements a host op computes on real data (its inputs; a factory's outputs): indices,
# token ids, masks, counters, a small dataset. Larger ones stay fake (a batch of images, weights).
HOST_LIMIT = 1 << 20
# Indices drawn on the host may be larger: a sampler's permutation of a data set's 1.3 million
# samples (ImageNet), iterated with `.tolist()`. Fake, each element would be a fake tensor read as
# a placeholder (every index 1), a million dispatches; real, it takes milliseconds.
INDEX_LIMIT = 1 << 26

# Ops that gather many host tensors into one (`_host_inputs`).
_GATHERS = {torch.ops.aten.stack.default, torch.ops.aten.cat.default}

# `_embedding_bag` and its forward-only variant: outputs shaped as CUDA's (`_embedding_bag_as_cuda`).
_EMBEDDING_BAGS = {torch.ops.aten._embedding_bag.default, torch.ops.aten._embedding_bag_forward_only.default}
# Sparse @ dense on CUDA (`_sparse_mm_copies`).
_SPARSE_DENSE_MM = {torch.ops.aten.mm.default, torch.ops.aten.addmm.default, torch.ops.aten._sparse_mm.default,
                    torch.ops.aten._sparse_addmm.default}

# Ops whose CUDA kernel allocates its outputs in another order than it returns them, which decides
# where the caching allocator puts them: CUDA's dropout allocates its mask before its output (the
# mask's 20 MiB segment then holds a large output too, where the other order takes one more).
_OUTPUTS_IN_CUDA_ORDER = {torch.ops.aten.native_dropout.default: (1, 0)}

# Indexing by a boolean mask: the output's (or the index's) size is the mask's count of True.
_MASK_INDEXING = {torch.ops.aten.index.Tensor, torch.ops.aten.index_put.default, torch.ops.aten.index_put_.default,
                  torch.ops.aten._index_put_impl_.default}

# The device a tensor's C++ side asks of a fake tensor (`_device_query`).
_DEVICE_QUERY = torch.ops.prim.device.default
_META = torch.device("meta")

# The fake mode running (torch's `active_fake_mode`, which walks the whole mode stack at every op): a fake
# mode has one slot of its own in the stack, read directly.
_FAKE_SLOT = torch._C._TorchDispatchModeKey.FAKE


def active_fake_mode():
    return torch._C._get_dispatch_mode(_FAKE_SLOT)


_MATMUL_OPS = {"mm", "bmm", "addmm", "baddbmm", "_scaled_dot_product_flash_attention",
               "_scaled_dot_product_efficient_attention", "_scaled_dot_product_cudnn_attention"}


def is_evaluation(module: torch.nn.Module) -> bool:
    """An evaluation forward: gradients off for a module that trains. A frozen module run under
    no_grad inside a training step (a VAE encoder, a teacher) is not one."""
    if torch.is_grad_enabled() and not torch.is_inference_mode_enabled():
        return False
    return any(p.requires_grad for p in module.parameters())


def _device_type(device) -> str:
    try:
        return torch.device(device).type
    except (RuntimeError, TypeError):
        return "?"


# CUDA reductions whose kernel may take a staging buffer (`reductions`).
_REDUCTIONS = {torch.ops.aten.sum.default, torch.ops.aten.sum.dim_IntList, torch.ops.aten.mean.default,
               torch.ops.aten.mean.dim}


# Losses whose CUDA kernel writes the unreduced loss to a tensor of the inputs' size and then reduces it
# (aten/src/ATen/native/Loss.cpp, torch 2.11: `mse_loss_out`, `smooth_l1_loss_out` and `huber_loss_out`
# build a TensorIterator over an undefined `loss` and `mean_out`/`sum_out` it into the result), which one op
# of a fake run does not show; the first two also keep a buffer of that size as long as their result.
_UNREDUCED_LOSSES = {torch.ops.aten.mse_loss.default, torch.ops.aten.smooth_l1_loss.default,
                     torch.ops.aten.huber_loss.default}
_KEEPING_LOSSES = {torch.ops.aten.mse_loss.default, torch.ops.aten.smooth_l1_loss.default}


_REGISTER_MULTI_GRAD_HOOK = mod_tracker.register_multi_grad_hook


class _Waiting:
    """The nodes a module's input gradients come from, while its backward may still run. Held by
    the hooks, which the nodes hold: a cycle through C++ that no collector sees, so each is
    dropped at the end of the next backward call, after which a graph the program let go of is
    freed (`_multi_grad_hook_keeping_no_grads`)."""

    def __init__(self, grad_fns: list) -> None:
        self.grad_fns: list | None = grad_fns


_WAITING: "weakref.WeakSet[_Waiting]" = weakref.WeakSet()
_RELEASING: set[int] = set()  # backward calls (graph tasks) whose end drops them


def _release_waiting() -> None:
    for waiting in list(_WAITING):
        waiting.grad_fns = None
    _WAITING.clear()
    _RELEASING.clear()


def _multi_grad_hook_keeping_no_grads(tensors, fn, mode: str = "all"):
    """`register_multi_grad_hook` for ModTracker, which learns from it when a module's backward is
    done: called once the gradients of all of `tensors` are computed, like torch's, but with None
    for them. Torch's keeps each gradient until the last one comes; for a module whose inputs
    include a tensor every block shares (a diffusion UNet's time embedding), that is the end of
    backward, so the tracker itself kept each block's input gradient alive, which the program on
    the GPU does not (a UNet with checkpointing peaked 64 MiB higher).
    A module called on a leaf that requires grad (a WGAN-GP critic on its interpolated images,
    differentiated by `torch.autograd.grad(..., inputs=leaf)`) is done at its first gradient:
    torch cannot say under `autograd.grad` whether a leaf's node will run, and raises.
    The nodes, which say how many gradients a backward call will compute, are held until the end
    of the next backward call (`_Waiting`): torch's hooks hold them for good, so a graph that is
    only partly differentiated (`torch.autograd.grad` for a few inputs: an architecture search's
    step for its architecture weights) or not at all stayed alive with what its nodes saved, which
    the GPU frees when the program drops it. A later backward call through the same graph is done
    at its first gradient."""
    if mode != "all" or any(t.grad_fn is None for t in tensors):
        return _REGISTER_MULTI_GRAD_HOOK(tensors, fn, mode="any")
    waiting = _Waiting([_get_grad_fn_or_grad_acc(t) for t in tensors])
    _WAITING.add(waiting)
    size = len(tensors)  # the hook must not hold the tensors it is registered on: a cycle no collector sees
    counts: dict[int, int] = {}  # backward call (graph task) -> gradients seen, and how many will come
    expected: dict[int, int] = {}
    lock = threading.Lock()

    def hook(_grad) -> None:
        task = torch._C._current_graph_task_id()
        with lock:
            if task not in counts:
                grad_fns = waiting.grad_fns
                counts[task] = 0
                expected[task] = 1 if grad_fns is None else sum(map(torch._C._will_engine_execute_node, grad_fns))
                if task not in _RELEASING:
                    _RELEASING.add(task)
                    torch.autograd.Variable._execution_engine.queue_callback(_release_waiting)
            counts[task] += 1
            done = counts[task] == expected[task]
            if done:
                del counts[task], expected[task]
        if done:
            fn([None] * size)

    return [t.register_hook(hook) for t in tensors]


# A sparse tensor's parts (COO: indices and values; compressed layouts: their index arrays and
# values): it has no storage of its own, so memory is what its parts hold.
_SPARSE_PARTS = {torch.sparse_coo: ("_indices", "_values"),
                 torch.sparse_csr: ("crow_indices", "col_indices", "values"),
                 torch.sparse_csc: ("ccol_indices", "row_indices", "values"),
                 torch.sparse_bsr: ("crow_indices", "col_indices", "values"),
                 torch.sparse_bsc: ("ccol_indices", "row_indices", "values")}


# Tensor classes that hold their memory in a storage of their own (no inner tensors).
_OWN_STORAGE = (torch.Tensor, torch.nn.Parameter, FakeTensor)


def storages(t: torch.Tensor) -> set:
    """The storages that hold `t`'s memory: its own, a wrapper subclass's inner tensors', or a
    sparse tensor's parts' (torch's `get_untyped_storages` raises on sparse tensors, which a graph
    network's adjacency often is)."""
    parts = _SPARSE_PARTS.get(t.layout)
    if parts is not None:
        return {st for part in parts for st in get_untyped_storages(getattr(t, part)())}
    if type(t) in _OWN_STORAGE:  # most tensors, at every op: no walk over a subclass's inner tensors
        return {t.untyped_storage()}
    return get_untyped_storages(t)


def tensor_leaves(tree) -> list:
    """The tensors in `tree` (an op's arguments or outputs: tuples, lists and dicts, nested), in
    `tree_flatten`'s order. Per op, without pytree's specs and wrappers: in a network of many small
    modules those were a tenth of a fake step."""
    if isinstance(tree, torch.Tensor):
        return [tree]
    found: list = []
    _collect_tensors(tree, found)
    return found


def _collect_tensors(tree, found: list) -> None:
    if isinstance(tree, torch.Tensor):
        found.append(tree)
    elif isinstance(tree, (tuple, list)):
        for item in tree:
            _collect_tensors(item, found)
    elif isinstance(tree, dict):
        for item in tree.values():
            _collect_tensors(item, found)


class _Snapshot(dict):
    """A snapshot of memory per device (device -> category -> bytes), copied by `dict` where
    MemTracker deep-copies it (every module's forward and backward hooks)."""

    def __deepcopy__(self, memo) -> "_Snapshot":
        return _Snapshot({device: dict(part) for device, part in self.items()})


def _basic_index(key) -> bool:
    """An index that selects a view (numbers, slices of numbers, None, ...), no tensor or list in it."""
    parts = key if type(key) is tuple else (key,)
    return all(type(p) in (int, bool) or p is None or p is Ellipsis
               or type(p) is slice and all(type(v) in (int, type(None)) for v in (p.start, p.stop, p.step))
               for p in parts)


def _written(func, args: tuple, kwargs: dict) -> list:
    """The tensors an op writes in place (`out=` included), by its schema."""
    schema = getattr(func, "_schema", None)
    if schema is None or not schema.is_mutable:
        return []
    written = []
    for i, argument in enumerate(schema.arguments):
        if argument.alias_info is not None and argument.alias_info.is_write:
            value = args[i] if i < len(args) else kwargs.get(argument.name)
            written += tensor_leaves(value)
    return written


def _embedding_bag_as_cuda(args: tuple, kwargs: dict, res: tuple) -> tuple:
    """An embedding bag's outputs as CUDA's kernel makes them (EmbeddingBag.cu): `offset2bag` for
    every index, `bag_size` per offset, `max_indices` per bag and feature in max mode only. The fake
    kernel follows the CPU's, whose sum fast path has no `offset2bag`: the backward's gradient rows
    (one per index, a sparse gradient's entries) would have none."""
    weight, indices, offsets = args[:3]
    mode = args[4] if len(args) > 4 else kwargs.get("mode", 0)
    output = res[0]
    max_indices = indices.new_empty(output.size(0), weight.size(1)) if mode == 2 else indices.new_empty(0)
    return output, indices.new_empty(indices.size(0)), indices.new_empty(offsets.size()), max_indices


def _sparse_clone(t: torch.Tensor, share: bool) -> torch.Tensor:
    """A sparse COO tensor's clone with its entries, which the fake kernel's clone leaves out (its nnz
    is 0). In a backward (`share`) it is autograd putting a new sparse gradient into `.grad`: on the GPU
    a shallow copy of the same entries (AccumulateGrad copies only a gradient something else holds,
    which the fake tensors' extra references make every one look like); elsewhere a copy of them."""
    indices, values = t._indices(), t._values()
    if not share:
        indices, values = indices.clone(), values.clone()
    return torch.ops.aten._sparse_coo_tensor_with_dims_and_tensors(
        t.sparse_dim(), t.dense_dim(), t.shape, indices, values, dtype=t.dtype, layout=torch.sparse_coo,
        is_coalesced=t.is_coalesced())


def install_sparse_storages(patch) -> None:
    """Make torch's MemTracker account sparse tensors by their parts (`patch(owner, name, value)`
    restores on exit)."""
    patch(mem_tracker, "get_untyped_storages", storages)


class StepTracker(MemTracker):
    def __init__(self, on_step=None) -> None:
        super().__init__()
        # The categories, which MemTracker reads only to start a device's snapshot (`dict.fromkeys`, made
        # at every allocation and free): a tuple of them, in their order, rather than the enum it iterates.
        self._ref_class = tuple(Category)
        self.gpu = WeakIdKeyDictionary()  # storage -> True: on the emulated GPU
        # sparse tensor on the emulated GPU -> stand-ins of its parts (a fake one holds none: `_sparse_parts`)
        self.gpu_sparse = WeakIdKeyDictionary()
        self.shadow = WeakIdKeyDictionary()  # fake GPU tensor -> the real host tensor of its values
        self.selected_by = WeakIdKeyDictionary()  # a selection by a mask without values -> id of that mask
        self.kept_with = WeakIdKeyDictionary()  # a result -> a buffer its kernel keeps as long as it lives
        self.inside = 0  # > 0 while the fake mode runs an op
        self.placing: bool | None = None  # set by fakegpu around a call that names a device
        self.category: Category | None = None  # set around a call whose allocations are one kind (DDP's buckets)
        self.stream = 0  # set by `distributed` while a side stream is current (FSDP's communication streams)
        self.reduction_gpu = reductions.DEFAULT_SHAPE  # the emulated GPU's, for `sum`'s staging buffer (fakegpu)
        self.record = Record()
        self.phase_name = "setup"
        self._phase_key: tuple[int, str] | None = None
        self._phase_index = -1
        self._on_step = on_step
        self._backward_seen = False  # this step's backward ran: what follows (clipping) belongs to it
        self._step_hook = None
        self.scalar_use: str | None = None  # set by fakegpu while a Tensor method asks for a Python value
        self._eval_from_program = False  # the eval phase began at the program's own no-grad forward
        self._stats_by_name: dict = {}  # module name -> its statistics, for `_update_peak_stats`
        # device -> a total at or below every running module's peak as last seen (`_update_peak_stats`);
        # emptied when a module's peak starts again (its pre-forward and pre-backward hooks)
        self._module_floor: dict = {}
        self._new_phase()

    # -- the GPU -------------------------------------------------------------------------
    def on_gpu(self, t: torch.Tensor) -> bool:
        try:
            if t.layout in _SPARSE_PARTS:  # by the tensor: reaching its parts dispatches, which asks its device
                return t in self.gpu_sparse
            return t.untyped_storage() in self.gpu
        except (RuntimeError, NotImplementedError):
            return False

    def _mark(self, out, gpu: bool) -> None:
        def mark(t: torch.Tensor) -> None:
            if t.layout in _SPARSE_PARTS:
                if gpu:
                    self.gpu_sparse.setdefault(t, ())
                else:
                    self.gpu_sparse.pop(t, None)
            for st in storages(t):
                if gpu:
                    self.gpu[st] = True
                else:
                    self.gpu.pop(st, None)

        for t in tensor_leaves(out):
            mark(t)

    def retag(self, t: torch.Tensor, category: Category) -> None:
        """Re-categorize a tracked tensor (the autocast cache, the inputs)."""
        try:
            self._update_and_maybe_create_winfos(t, category)
        except KeyError:
            pass

    # -- phases ----------------------------------------------------------------------------
    def _new_phase(self) -> None:
        key = (self.record.steps + 1, self.current_phase())
        if key != self._phase_key:
            self._phase_key = key
            name = key[1]
            self.record.phases.append(Phase(0 if name == "setup" else key[0], name))
            self._phase_index = len(self.record.phases) - 1

    def current_phase(self) -> str:
        if self.phase_name in ("setup", "eval"):
            return self.phase_name
        if self.in_optimizer_math():
            return "optimizer step"
        if self._mod_tracker.is_bw:
            self._backward_seen = True
        return "backward" if self._backward_seen else "forward"

    def in_optimizer_math(self) -> bool:
        """Inside `optimizer.step()` but not in the model: a closure (Lightning, L-BFGS) runs the
        forward and backward inside the step, and those are not the optimizer's."""
        return self._in_opt and not self._mod_tracker.is_bw and len(self._mod_tracker.parents) <= 1

    def _update_snap(self, u_type, winfo, old_mem_consumed=None, old_reftype=None) -> None:
        super()._update_snap(u_type, winfo, old_mem_consumed, old_reftype)
        if winfo.device.type != "cuda":
            return
        self._new_phase()
        key = id(winfo)
        events = self.record.events
        if u_type == _UpdateType.ADD:
            if self.stream:
                self.record.streams[len(events)] = self.stream
            events.append((1, key, winfo.mem_consumed, winfo.reftype.value, self._phase_index))
        elif u_type == _UpdateType.DEL:
            events.append((-1, key, winfo.mem_consumed, winfo.reftype.value, self._phase_index))
        elif u_type == _UpdateType.REF:
            events.append((0, key, winfo.mem_consumed, winfo.reftype.value, self._phase_index))
        else:  # a resize_: the storage is freed and allocated again at its new size
            events.append((-1, key, old_mem_consumed, winfo.reftype.value, self._phase_index))
            if self.stream:  # on the stream current at the resize (FSDP1 all-gathers into a resized storage)
                self.record.streams[len(events)] = self.stream
            events.append((1, key, winfo.mem_consumed, winfo.reftype.value, self._phase_index))

    # -- steps -----------------------------------------------------------------------------
    def __enter__(self):
        if self._depth == 0:
            mod_tracker.register_multi_grad_hook = _multi_grad_hook_keeping_no_grads
        result = super().__enter__()
        if self._step_hook is None:
            self._step_hook = register_optimizer_step_post_hook(self._after_step)
        return result

    def __exit__(self, *args) -> None:
        if self._depth == 1 and self._step_hook is not None:
            self._step_hook.remove()
            self._step_hook = None
        super().__exit__(*args)
        if self._depth == 0:
            mod_tracker.register_multi_grad_hook = _REGISTER_MULTI_GRAD_HOOK

    def start_training(self) -> None:
        self.phase_name = "train"
        self._new_phase()

    def start_eval(self) -> None:
        self._keep_modules()
        self.phase_name = "eval"
        self._new_phase()

    def _after_step(self, optimizer, args, kwargs) -> None:
        # MemTracker's own post-hook (registered first) has just tracked the new state.
        if self.phase_name == "setup":
            self.phase_name = "train"
        self._keep_modules()
        self._backward_seen = False
        self.record.steps += 1
        self._new_phase()
        if self._on_step is not None:
            self._on_step(self.record.steps)

    def _keep_modules(self) -> None:
        uses = []
        for stats in self.memory_tracking.values():
            pre = stats.snapshots.get(_ModState.PRE_FW, [])
            post = stats.snapshots.get(_ModState.POST_FW, [])
            if not pre or not post:
                continue
            before = pre[0].get(GPU, {}).get("Total", 0)
            after = post[0].get(GPU, {}).get("Total", 0)
            uses.append(ModuleUse(stats.mod_fqn, stats.parameter_mem, after - before, stats.local_peak.get(GPU, 0)))
        if uses:
            self.record.modules.setdefault(self.record.steps + 1, uses)
        self.reset_mod_stats()

    def _pre_fw_hook(self, module, inputs) -> None:
        root = set(self._mod_tracker.parents) - {self._mod_tracker.get_known_fqn(module)} == {"Global"}
        if root and not self._mod_tracker.is_bw:
            evaluating = is_evaluation(module)
            factory_eval = self.phase_name == "eval" and not self._eval_from_program  # start_eval's phase stays
            if evaluating or self._eval_from_program:
                # An evaluation's forward of the program, or the training forward after one: the module
                # statistics reported are a training forward's, so the evaluation's are dropped.
                self.reset_mod_stats()
                if not factory_eval:
                    self.phase_name = "eval" if evaluating else "train"
                    self._eval_from_program = evaluating
            elif module in self.memory_tracking:  # the root's next forward without an optimizer step
                self._keep_modules()
            if self.phase_name == "setup":
                self.phase_name = "train"
            for t in tree_flatten((inputs,))[0]:
                if isinstance(t, torch.Tensor) and 0 in t.shape and not self.record.empty_input:
                    self.record.empty_input = f"{tuple(t.shape)} at {user_site() or '?'}"
                if isinstance(t, torch.Tensor) and self.on_gpu(t):
                    winfos = [self._WINFO.get(st, (None, None))[0] for st in storages(t)]
                    if any(w is not None and w.reftype in (Category.ACT, Category.OTH) for w in winfos):
                        self.retag(t, Category.INPUT)
        super()._pre_fw_hook(module, inputs)
        self._module_floor.clear()
        stats = self.memory_tracking.get(module)
        if stats is not None:
            self._stats_by_name[stats.mod_fqn] = stats

    def get_tracker_snapshot(self, type: str = "current") -> _Snapshot:
        snap = {"current": self._curr_mem_snap, "peak": self._peak_mem_snap}[type]
        return _Snapshot({device: dict(part) for device, part in snap.items()})

    def reset_mod_stats(self) -> None:
        super().reset_mod_stats()
        self._stats_by_name.clear()
        self._module_floor.clear()

    def _pre_bw_hook(self, module, args) -> None:
        # A module whose statistics were dropped after its forward (a GAN: the discriminator's next
        # forward drops the generator's, whose backward still comes) has none to add to.
        if module is None or module in self.memory_tracking:
            super()._pre_bw_hook(module, args)
        self._module_floor.clear()

    def _post_bw_hook(self, module, args) -> None:
        if module is None or module in self.memory_tracking:
            super()._post_bw_hook(module, args)

    def _update_peak_stats(self, peak_state) -> None:
        # MemTracker's, visiting the modules running now (`parents`) rather than every module
        # tracked so far, after every op: with a GPT-2's 150 modules most of a fake step's time.
        # Only a module's peak is kept (`ModuleUse.local_peak`), not a copy of the breakdown at it,
        # which each op that raised the peaks of the modules around it made once per module.
        # The modules are visited only when the total passes the floor, the lowest of their peaks
        # after the last visit: below it no peak can rise (an architecture search's cells run
        # thousands of ops inside a dozen modules, most of them below the peaks already seen).
        snap = self._curr_mem_snap
        parents, by_name, floor = self._mod_tracker.parents, self._stats_by_name, self._module_floor
        for dev, dev_snap in snap.items():
            total = dev_snap["Total"]
            if dev in floor and total <= floor[dev]:
                continue
            lowest = total
            for name in parents:
                stats = by_name.get(name)
                if stats is None:
                    continue
                peak = stats.local_peak.get(dev, 0)
                if peak < total and peak_state in stats.snapshots:
                    stats.local_peak[dev] = peak = total
                lowest = min(lowest, peak)
            floor[dev] = lowest
        for dev, dev_snap in snap.items():
            if self._peak_mem.get(dev, 0) < dev_snap["Total"]:
                self._peak_mem[dev] = dev_snap["Total"]
                self._peak_mem_snap[dev] = dict(dev_snap)

    def _track_module_params_and_buffers(self, module, install_grad_hooks: bool = True) -> tuple[int, int]:
        # MemTracker's, in one pass over the parameters (each module's first forward of a step visits
        # those of all its submodules). MemTracker hooks every parameter, and `register_hook` refuses a
        # frozen one (LoRA's base weights): only those that get a gradient are hooked.
        param_memory = 0
        for param in module.parameters():
            winfos = self._update_and_maybe_create_winfos(param, Category.PARAM)
            param_memory += sum(winfo.mem_consumed for winfo in winfos)
            if param.grad is not None:
                self._update_and_maybe_create_winfos(param.grad, Category.GRAD)
            if install_grad_hooks and param.requires_grad and self._param_to_grad_hook_handles.get(param, None) is None:
                self._param_to_grad_hook_handles[param] = (
                    param.register_hook(self._on_grad),
                    param.register_post_accumulate_grad_hook(lambda p: self._on_grad(p.grad)))
        buffer_memory = 0
        for buffer in module.buffers():
            winfos = self._update_and_maybe_create_winfos(buffer, Category.BUFFER)
            buffer_memory += sum(winfo.mem_consumed for winfo in winfos)
        return param_memory, buffer_memory

    def _on_grad(self, grad: torch.Tensor) -> None:
        self._update_and_maybe_create_winfos(grad, Category.GRAD)

    def _track_inputs_or_outputs(self, args) -> int:
        # The size of each module call's inputs and outputs, which MemTracker keeps with the module's
        # statistics: nothing here reads it (`ModuleUse` is what is reported), so it is not summed.
        return 0

    # -- dispatch ----------------------------------------------------------------------------
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        # MemTracker's, with the GPU marks, the placeholder for `.item()`, and `inside` set
        # while the fake mode runs the op: its device propagation must see the CPU device.
        if func is _DEVICE_QUERY and type(args[0]) is FakeTensor and getattr(self, "_fake_mode_on_entry", None):
            return self._device_query(args[0])
        kwargs = kwargs or {}
        if func is torch.ops.aten._local_scalar_dense.default and isinstance(args[0], FakeTensor):
            if args[0] in self.shadow:
                with unset_fake_temporarily():
                    return self.shadow[args[0]].item()
            return self.placeholder(args[0])
        if func is torch.ops.aten.lift_fresh.default and type(args[0]) is torch.Tensor and self.placing is None \
                and args[0].numel() <= HOST_LIMIT and active_fake_mode() is not None:
            return args[0]  # torch.tensor(...), torch.from_numpy(...) of small host data: the real tensor
        if any(t is DTensor for t in types):
            return NotImplemented
        matmul = func.__name__.split(".")[0] in _MATMUL_OPS
        if matmul:
            self.record.matmuls = True
            self.record.backward_matmuls = self.record.backward_matmuls or self._mod_tracker.is_bw
        tensors = tensor_leaves((args, kwargs))
        view_of = None  # a guessed selection's view (indexing strips its leading 1s) is one too
        if len(self.selected_by) and any(t in self.selected_by for t in tensors):
            if getattr(func, "is_view", False) and args and args[0] in self.selected_by:
                view_of = self.selected_by[args[0]]
            elif func.namespace != "prim" and not self._written_back(func, args):  # prim: its device, asked
                raise DynamicOutputShapeException(func)  # its size, a guess, would reach the program
        if self.placing is not None:
            gpu = self.placing
        else:
            gpu = any(self.on_gpu(t) for t in tensors)
        mode = active_fake_mode()
        real = None
        sparse_from_host = [t for t in tensors if type(t) is torch.Tensor and t.layout == torch.sparse_coo]
        self.inside += 1
        try:
            if mode is None:  # a real run, tracked the same way (the tests' reference)
                res = func(*args, **kwargs)
            elif not gpu and self._host_inputs(func, tensors, kwargs):
                res = self._host(func, args, kwargs, tensors)
            elif not gpu and any(isinstance(t, FakeTensor) for t in tensors) and self._shadowed(tensors) \
                    and (host := self._on_shadows(func, args, kwargs)) is not None:
                res = host  # a shadowed GPU tensor back on the host: its real values
            else:
                shadowed = gpu and self._shadowed(tensors)
                given = (args, kwargs)
                if any(type(t) is torch.Tensor for t in tensors):
                    # Made fake here rather than by the fake mode's own path for real inputs,
                    # which is several times slower (a real batch copied to the GPU every step).
                    args, kwargs = tree_map_only(
                        torch.Tensor, lambda t: mode.from_tensor(t) if type(t) is torch.Tensor else t, (args, kwargs))
                try:
                    res = func(*args, **kwargs)
                except (DynamicOutputShapeException, DataDependentOutputException):
                    real = self._on_shadows(func, *given) if shadowed else None
                    if real is not None:
                        res = tree_map_only(torch.Tensor, mode.from_tensor, real)  # the shape the values give
                    else:
                        res = self._index_by_mask_values(func, args, kwargs, mode)
                        if res is None:
                            raise
                else:
                    # after the fake run, which gives the outputs' sizes: a large factory is never made real
                    small = sum(o.numel() for o in tensor_leaves(res)) <= HOST_LIMIT
                    real = self._on_shadows(func, *given) if shadowed and small else None
                self._keep_shadows(func, args, kwargs, res, real)
                if gpu and func in _EMBEDDING_BAGS:
                    res = _embedding_bag_as_cuda(args, kwargs, res)
                elif func is torch.ops.aten.clone.default and args[0].layout == torch.sparse_coo:
                    res = _sparse_clone(args[0], share=self._mod_tracker.is_bw)
        finally:
            self.inside -= 1
        if view_of is not None and isinstance(res, torch.Tensor):
            self.selected_by[res] = view_of
        if mode is not None and not gpu:
            # Host memory is not predicted: leaving its ops untracked keeps a program's host side
            # (nanoGPT's get_batch: a slice per row, 400 batches of evaluation) fast.
            return res
        # torch < 2.12 has no `_fake_mode_on_entry` (it tracks every op it sees). `mode`: the op has run and
        # left the mode stack as it found it.
        if mode is getattr(self, "_fake_mode_on_entry", mode):
            if self.category is not None:
                reftype = self.category
            elif self.in_optimizer_math():  # the state proper becomes OPT in MemTracker's post-step hook
                reftype = Category.OPT_TMP
            elif self._mod_tracker.is_bw and not self._in_ac:
                reftype = Category.TEMP
            else:
                reftype = Category.ACT
            if gpu:
                self._mark(res, True)
            if gpu and func in _OUTPUTS_IN_CUDA_ORDER:
                res_in_order = [res[i] for i in _OUTPUTS_IN_CUDA_ORDER[func]]
            else:
                res_in_order = res
            for t in tensor_leaves(res_in_order):
                self._track(reftype, t)
            if gpu and sparse_from_host:
                for part in self._sparse_parts(res, sparse_from_host[0]):
                    self._track(reftype, part)
            if gpu and matmul:  # its handle's cuBLAS workspace is taken here (`summary.workspace_allocations`)
                self.record.cublas_at.setdefault(bool(self._mod_tracker.is_bw), len(self.record.events))
            kernel_side = getattr(self, "kernel_side", None)
            if gpu and mode is not None and kernel_side is not None:
                kernel_side.after_op(func, args, self._phase_index)
            self._update_peak_stats(_ModState.PEAK_BW if self._mod_tracker.is_bw else _ModState.PEAK_FW)
            if gpu and func in _REDUCTIONS:
                self._reduction_staging(args, kwargs)
            if gpu and func in _UNREDUCED_LOSSES:
                self._unreduced_loss(func, args, kwargs, res)
            if gpu and func in _SPARSE_DENSE_MM and isinstance(res, torch.Tensor):
                self._sparse_mm_copies(args, res)
        return res

    def _device_query(self, t: FakeTensor) -> torch.device:
        """`prim.device` of a fake tensor, which its C++ side asks (the autograd graph's checks of each op's
        inputs and outputs): two thirds of the ops a fake step dispatches. Answered as the fake mode does,
        without entering it; it allocates nothing, so of an op's bookkeeping on the GPU only the modules'
        peaks are visited (a gradient hooked in since the last op is seen at the same point)."""
        device = _META if t.fake_mode.in_kernel_invocation else t.fake_device
        gpu = self.placing if self.placing is not None else self.on_gpu(t)
        if gpu and active_fake_mode() is self._fake_mode_on_entry:
            self._update_peak_stats(_ModState.PEAK_BW if self._mod_tracker.is_bw else _ModState.PEAK_FW)
        return device

    def _reduction_staging(self, args: tuple, kwargs: dict) -> None:
        """The global-memory buffer a CUDA `sum`/`mean` takes during its launch (`reductions`),
        allocated after its output and given back, as the kernel does; the kernel's, so "other"
        (not an activation: the sanity check's count of what a forward keeps leaves it out)."""
        x = args[0]
        if not isinstance(x, torch.Tensor) or x.layout != torch.strided:
            return
        dims = args[1] if len(args) > 1 else kwargs.get("dim")
        # The accumulator: float for floating types up to 32 bits, the type itself for double and complex,
        # int64 for integers and bool.
        if x.is_complex() or x.dtype == torch.float64:
            accumulate = x.element_size()
        else:
            accumulate = 4 if x.is_floating_point() else 8
        nbytes = reductions.staging_bytes(tuple(x.shape), tuple(x.stride()), dims, x.element_size(), accumulate,
                                          self.reduction_gpu, x.storage_offset())
        if nbytes:
            buffer = x.new_empty((nbytes,), dtype=torch.uint8)
            self._mark(buffer, True)
            self._track(Category.OTH, buffer)
            self._update_peak_stats(_ModState.PEAK_BW if self._mod_tracker.is_bw else _ModState.PEAK_FW)
            del buffer

    def _unreduced_loss(self, func, args: tuple, kwargs: dict, res) -> None:
        """The unreduced loss a CUDA `mse_loss`/`smooth_l1_loss`/`huber_loss` with a mean or sum computes
        into a tensor of its inputs' broadcast shape, allocated after the (0-d) result and freed once
        reduced; the kernel's, so "other", as the reduction's staging buffer. `mse_loss` and
        `smooth_l1_loss` take one more buffer of that size first, which lives as long as their result
        (measured on an H200, torch 2.11, with gradients on and off: a loss held in a variable holds it
        until the variable is rebound, through backward; `huber_loss` keeps none;
        `benchmarks/estimate/loss_probe.py`)."""
        x, target = args[0], args[1]
        reduction = args[2] if len(args) > 2 else kwargs.get("reduction", 1)
        if not reduction or not isinstance(x, torch.Tensor) or not isinstance(target, torch.Tensor):
            return  # reduction "none": the unreduced loss is the result itself
        shape = torch.broadcast_shapes(x.shape, target.shape)
        if func in _KEEPING_LOSSES and isinstance(res, torch.Tensor):
            kept = x.new_empty(shape)
            self._mark(kept, True)
            self._track(Category.OTH, kept)
            self.kept_with[res] = kept
        loss = x.new_empty(shape)
        self._mark(loss, True)
        self._track(Category.OTH, loss)
        self._update_peak_stats(_ModState.PEAK_BW if self._mod_tracker.is_bw else _ModState.PEAK_FW)
        del loss

    def _sparse_parts(self, res, host: torch.Tensor) -> tuple:
        """A fake sparse tensor holds no entries (its nnz is 0), so a real one's copy to the GPU gets
        stand-ins of the indices and values it holds, freed with it."""
        if not (isinstance(res, FakeTensor) and res.layout == torch.sparse_coo):
            return ()
        with unset_fake_temporarily():  # the host tensor's own count, not a fake copy's
            sparse_dim, nnz = host.sparse_dim(), host._nnz()
        parts = (torch.empty((sparse_dim, nnz), dtype=torch.int64),
                 torch.empty((nnz, *host.shape[sparse_dim:]), dtype=res.dtype))
        for part in parts:
            self._mark(part, True)
        self.gpu_sparse[res] = parts
        return parts

    # -- shadows: the real values of small GPU tensors made from host data ----------------------
    def _shadowed(self, tensors: list) -> bool:
        """Whether every tensor input has real values (a real host tensor, or a shadowed fake), small
        in all; a factory (no inputs) always, its output is checked when it is made."""
        total = 0
        for t in tensors:
            if not (type(t) is torch.Tensor and t.device.type == "cpu" or isinstance(t, FakeTensor) and t in self.shadow):
                return False
            total += t.numel()
        return total <= HOST_LIMIT

    def _on_shadows(self, func, args: tuple, kwargs: dict):
        """`func` on the real values, on the host; None when it cannot run there or its outputs are large."""
        def real(t: torch.Tensor) -> torch.Tensor:
            return self.shadow[t] if isinstance(t, FakeTensor) else t

        args, kwargs = tree_map_only(torch.Tensor, real, (args, kwargs))
        if "device" in kwargs:
            kwargs = {**kwargs, "device": torch.device("cpu")}
        try:
            with unset_fake_temporarily():
                res = func(*args, **kwargs)
        except Exception:  # noqa: BLE001 - an op the host cannot run (a CUDA-only kernel): no shadow
            return None
        outputs = tensor_leaves(res)
        if any(type(o) is not torch.Tensor for o in outputs) or sum(o.numel() for o in outputs) > HOST_LIMIT:
            return None
        return res

    def _keep_shadows(self, func, args: tuple, kwargs: dict, res, real) -> None:
        if real is None:
            for t in _written(func, args, kwargs):  # written from values this run does not have
                self.shadow.pop(t, None)
            return
        fakes, reals = tree_flatten(res)[0], tree_flatten(real)[0]
        if len(fakes) != len(reals):
            return
        for fake, value in zip(fakes, reals):
            if isinstance(fake, FakeTensor) and isinstance(value, torch.Tensor) and fake.shape == value.shape:
                self.shadow[fake] = value

    def write_scalar(self, target, key, value) -> bool:
        """`x[i] = 3` on a small GPU tensor with real values (a label tensor rewritten element by element,
        forward-forward's negative labels): the write goes to the values, nothing is dispatched. CUDA
        writes a Python number into the tensor it indexes (a fill) and allocates nothing, so the fake
        tensor has nothing to record, and a loop over 50,000 elements takes a second, not minutes.
        False (the usual dispatch) for anything else: a tensor value, advanced indexing."""
        if not (isinstance(target, FakeTensor) and target in self.shadow and type(value) in (int, float, bool)
                and _basic_index(key)):
            return False
        with unset_fake_temporarily(), torch._C._DisableTorchDispatch():  # the real values, past this mode too
            self.shadow[target][key] = value
        return True

    def _index_by_mask_values(self, func, args: tuple, kwargs: dict, mode):
        """`x[mask]` and `x[mask] = v` on the GPU with a boolean mask that has real values: its
        shape is the mask's count, so the mask becomes the indices of its True elements (CUDA's
        kernel computes the same, `nonzero`) and the fake op runs on them. None otherwise."""
        if func is torch.ops.aten.masked_select.default and len(args) == 2:
            # CUDA's masked_select is `x[mask]` on both broadcast to one shape (IndexKernel.cu)
            x, m = args
            if m not in self.shadow:
                return None
            shape = torch.broadcast_shapes(x.shape, m.shape)
            with unset_fake_temporarily():
                found = self.shadow[m].expand(shape).nonzero().unbind(1)
            return torch.ops.aten.index.Tensor(x.expand(shape), [mode.from_tensor(i) for i in found])
        if func not in _MASK_INDEXING or len(args) < 2:
            return None
        indices, guessed = [], None
        for m in args[1]:
            if isinstance(m, torch.Tensor) and m.dtype in (torch.bool, torch.uint8):
                if m in self.shadow:
                    with unset_fake_temporarily():
                        found = self.shadow[m].nonzero().unbind(1)
                    indices += [mode.from_tensor(i) for i in found]
                    continue
                if not self._selection_stays_inside(func, args, m):
                    return None
                guessed = m
                with unset_fake_temporarily():  # every element: the count's upper bound, no data made
                    every = torch.zeros(1, dtype=torch.long).expand(m.numel())
                indices += [mode.from_tensor(every)] * m.dim()
            else:
                indices.append(m)
        res = func(args[0], indices, *args[2:], **kwargs)
        if guessed is not None:
            self.note_use(scalars.MASK_WRITE, user_site() or "?", None)
            if func is torch.ops.aten.index.Tensor:
                self.selected_by[res] = id(guessed)
        return res

    def _selection_stays_inside(self, func, args: tuple, mask: torch.Tensor) -> bool:
        """`y[m]` for a mask without values, and writes through it (`x[m] = y[m]`, `x[m] = v` for one
        value): the selection's size is the mask's count, unknown; taking every element is safe only
        while nothing but a write back through the same mask uses the selection (`_written_back`),
        since nothing the program keeps then has that size (farthest-point sampling's groups)."""
        if func is torch.ops.aten.index.Tensor:
            return len(args[1]) == 1
        values = args[2] if len(args) > 2 else None
        return isinstance(values, torch.Tensor) and (values.numel() == 1 or self.selected_by.get(values) == id(mask))

    def _written_back(self, func, args: tuple) -> bool:
        """True for an op that takes a guessed selection (`_selection_stays_inside`) only as the values
        written back through the mask that selected it."""
        if func not in _MASK_INDEXING or func is torch.ops.aten.index.Tensor or len(args) < 3:
            return False
        values = args[2]
        return values in self.selected_by and any(m is not None and id(m) == self.selected_by[values]
                                                  for m in args[1]) \
            and not any(t in self.selected_by for t in (args[0], *[m for m in args[1] if m is not None]))

    def _sparse_mm_copies(self, args: tuple, res: torch.Tensor) -> None:
        """CUDA's sparse @ dense (cuSPARSE's SpMM, `torch.spmm`) works on column-major copies of the
        dense operand and of the result (a row-major result is copied back at the end): both are
        allocated after the result and freed after the call (pygcn's peak on an H200 holds them)."""
        sparse = [a for a in args if isinstance(a, torch.Tensor) and a.layout == torch.sparse_coo]
        dense = [a for a in args if isinstance(a, torch.Tensor) and a.layout == torch.strided and a.dim() == 2]
        if not sparse or not dense or res.layout != torch.strided:
            return
        copies = [torch.empty(t.shape, dtype=res.dtype) for t in (res, dense[-1])
                  if not (t.dim() == 2 and t.stride(0) == 1)]  # already column-major: used as it is
        for copy in copies:
            self._mark(copy, True)
            self._track(Category.OTH, copy)
        self._update_peak_stats(_ModState.PEAK_BW if self._mod_tracker.is_bw else _ModState.PEAK_FW)
        del copies

    @staticmethod
    def _host_inputs(func, tensors: list, kwargs: dict) -> bool:
        """Real host tensors only (none, for a factory), nothing asked of another device; small ones,
        or any size for a view, which computes nothing (a data set held as one tensor, MNIST's, read
        one sample at a time: `data[i].numpy()` needs the real sample)."""
        if "device" in kwargs and _device_type(kwargs["device"]) != "cpu":
            return False
        if not all(type(t) in (torch.Tensor, torch.nn.Parameter) and t.device.type == "cpu" for t in tensors):
            return False
        total = sum(t.numel() for t in tensors)
        # A batch collated from many real samples (DataLoader's `torch.stack`, up to `INDEX_LIMIT`
        # elements) is made real too: a copy costs little, where making each sample fake costs a
        # conversion each (forward-forward's one batch of 50,000 MNIST images: minutes).
        return total <= HOST_LIMIT or getattr(func, "is_view", False) or \
            func in _GATHERS and len(tensors) > 1 and total <= INDEX_LIMIT

    @staticmethod
    def _host(func, args: tuple, kwargs: dict, tensors: list):
        """The op on real data: one on small real inputs directly; a factory (no inputs) when its
        outputs are small (or integer indices, up to `INDEX_LIMIT`), else its fake result (the fake
        run gives the sizes, computing nothing)."""
        if not tensors:
            res = func(*args, **kwargs)
            outputs = tensor_leaves(res)
            size = sum(t.numel() for t in outputs)
            indices = all(not (t.is_floating_point() or t.is_complex()) for t in outputs)
            if size > (INDEX_LIMIT if indices else HOST_LIMIT):
                return res
        with unset_fake_temporarily():
            return func(*args, **kwargs)

    def placeholder(self, t: torch.Tensor):
        """A fake value read as a Python value: a placeholder, or a stop (`scalars`)."""
        frame = scalars.user_frame(_plumbing)
        user = frame is not None and not _library(frame.f_code.co_filename)
        kind = self.scalar_use or scalars.VALUE
        if user and scalars.subscripting(frame):
            kind = scalars.INDEX
        if kind == scalars.TRUTH and user and self.phase_name == "eval":
            kind = scalars.EVAL_TRUTH
        if kind == scalars.INDEX or kind == scalars.TRUTH and user:
            raise scalars.FakeValueNeeded(scalars.stop_message(kind))
        # 1 rather than 0: Adam divides by `1 - beta ** step.item()` (a capturable step on the GPU);
        # False for a condition in a library: `if torch.isnan(loss): continue` must not skip the step.
        if t.dtype.is_floating_point or t.dtype.is_complex:
            answer = 1.0
        else:
            answer = False if t.dtype == torch.bool or kind in (scalars.TRUTH, scalars.EVAL_TRUTH) else 1
        site = f"{frame.f_code.co_filename}:{frame.f_lineno}" if frame is not None else "?"
        if user:
            self.record.items += 1
            self.record.item_site = self.record.item_site or site
        self.note_use(kind, site, answer)
        return answer

    def element_index(self, t: torch.Tensor) -> int:
        """A fake 0-d integer tensor that indexes one element of a tensor (`x[b, i]`): every element
        gives a view of the same shape, so 0, listed (`scalars`)."""
        frame = scalars.user_frame(_plumbing)
        site = f"{frame.f_code.co_filename}:{frame.f_lineno}" if frame is not None else "?"
        if frame is not None and not _library(frame.f_code.co_filename):
            self.record.items += 1
            self.record.item_site = self.record.item_site or site
        self.note_use(scalars.ELEMENT, site, 0)
        return 0

    def note_use(self, kind: str, site: str, answer: object) -> None:
        """One more use of a fake value's data at `site`, for the report (`scalars`)."""
        use = self.record.scalar_uses.get((kind, site))
        if use is None:
            self.record.scalar_uses[(kind, site)] = scalars.ScalarUse(kind, site, answer)
        else:
            use.count += 1
