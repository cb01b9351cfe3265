"""One rank of a distributed job in a fake run: torch.distributed's fake process group
(`FakeStore`, backend "fake") stands in for NCCL, so a program written for N GPUs runs in
one process here as rank R of N, and what that rank's GPU holds is what is predicted.

What is patched while a `FakeWorld` is installed, and why (restored with the fake GPU):

* `init_process_group` (any backend, any init method) joins the fake group of the world
  size asked for; collectives complete at once and move no data, which is what a fake
  tensor has anyway. Their outputs are allocated as the real ones are (all-gather and
  reduce-scatter buffers are the caller's tensors).
* `torch.cuda.device_count` (and `torch.accelerator.device_count`) answer the ranks of one
  node, so `LOCAL_RANK`-indexed device code and "needs N GPUs" checks pass; every `cuda:i`
  is the one emulated GPU.
* DDP: the constructor's check that all ranks hold the same parameters reads data
  (skipped); its reducer allocates the gradient buckets in C++ with no device argument of
  ours, so the constructor runs placing on the GPU (the buckets are their own category);
  the built-in all-reduce of a fake work has no result tensor, so an equivalent in-place
  hook (the bucket is reduced where it lies) is registered, and a program's own hook is
  ignored; the bucket rebuild after the first step syncs bucket indices by value and is
  skipped (DDP starts with one bucket of every gradient; the rebuilt ones hold the same
  gradients, 25 MiB at a time, and the first is freed). On a real GPU the first bucket may
  outlive the rebuild: NCCL keeps a collective's tensors until its watchdog thread sees the
  work complete, and on some ranks (1 of 2, 1 or 2 of 4 in our runs, which ones changing
  between runs) that is after step 2's peak, one gradient-size higher: `some_ranks`
  predicts those ranks' peak beside the others'.
* Device meshes (FSDP2's default one, `init_device_mesh`): a mesh is real integers whose
  coordinates are computed from them, so it is built outside the fake mode, and a CPU mesh
  (FSDP2's default on a CPU build of torch) is the emulated GPU's.
* CUDA streams and events are the CPU's no-op ones. A real GPU overlaps the next
  all-gather with compute, which FSDP bounds by its prefetching; the buffers themselves
  are allocated as on the GPU, and on the stream they are allocated on there: the caching
  allocator keeps a pool per stream (`allocator`), so what a side stream frees serves
  only that stream again. FSDP2 all-gathers and reduce-scatters in
  backward hooks, which run with the device rules on (autograd runs them with no torch
  function mode). FSDP1 (`FullyShardedDataParallel`) runs with the same rules.
* DTensor's random ops (dropout on a sharded or replicated tensor) run inside a
  higher-order op that sets the GPU generator's offset for the rank (`run_dtensor_rng_op`,
  torch >= 2.12), which has no rule for the tracker's dispatch mode: the tracker runs the
  op itself (a fake run draws no numbers, so the offset changes nothing). DTensor's
  sharding propagation runs each op once more on fake tensors of the global shape, made
  on the mesh's device: they are made on the CPU (a CPU build of torch cannot make a CUDA
  fake tensor for an op that decomposes, `uniform_`); they only give the output's shape.
"""

from __future__ import annotations

import contextlib

import torch
import torch.distributed as dist
from torch.utils._python_dispatch import _disable_current_modes

from memlint.estimate.launch import World
from memlint.estimate.summary import summarize


class FakeWorld:
    """Installs the patches of the module docstring through `patch(owner, name, value)`."""

    def __init__(self, world: World, tracker, devices) -> None:
        self.world = world
        self.tracker = tracker
        self.devices = devices  # fakegpu's device mode, which backward runs without
        self._streams: dict[int, int] = {}  # id of a side stream -> its number (FSDP keeps its streams alive)

    def install(self, patch) -> None:
        from torch.testing._internal.distributed.fake_pg import FakeStore

        world, original_init = self.world, dist.init_process_group

        def init_process_group(*args, **kwargs):
            if dist.is_initialized():
                return None
            return original_init("fake", store=FakeStore(), world_size=world.size, rank=world.rank,
                                 timeout=kwargs.get("timeout"))

        patch(dist, "init_process_group", init_process_group)
        patch(dist.distributed_c10d, "init_process_group", init_process_group)
        patch(torch.cuda, "device_count", lambda: world.per_node)
        if hasattr(torch, "accelerator"):  # "needs N GPUs" checks written with the device-generic API
            patch(torch.accelerator, "device_count", lambda: world.per_node)
        patch(dist, "_verify_params_across_processes", lambda *a, **k: None)
        for name, value in (("Stream", torch.cpu.Stream), ("Event", _Event), ("current_stream", _current_stream),
                            ("default_stream", _current_stream), ("stream", self._on_stream)):
            patch(torch.cuda, name, value)
        patch(torch.Tensor, "record_stream", lambda *a, **k: None)
        self._patch_mesh(patch)
        init_process_group()  # for a factory; a program's own call is then a no-op, as it is idempotent here
        self._patch_ddp(patch)
        self._patch_fsdp_backward(patch)
        _teach_dtensor_rng(type(self.tracker))
        self._patch_sharding_propagation(patch)

    @contextlib.contextmanager
    def _on_stream(self, stream):
        """`with torch.cuda.stream(s):` -- the allocations made inside are on `s`'s pool."""
        default = _current_stream()
        number = 0 if stream is None or stream is default else self._streams.setdefault(id(stream), len(self._streams) + 1)
        saved, self.tracker.stream = self.tracker.stream, number
        try:
            with torch.cpu.stream(stream):
                yield
        finally:
            self.tracker.stream = saved

    def _patch_mesh(self, patch) -> None:
        from torch.distributed import device_mesh

        original = device_mesh.init_device_mesh

        def init_device_mesh(device_type, *args, **kwargs):
            # A mesh is real integers (its coordinates are computed from them): built with no
            # mode of ours; a CPU mesh becomes the emulated GPU's (FSDP's default on a CPU build).
            with _disable_current_modes(), torch._C.DisableTorchFunction():
                return original("cuda" if device_type == "cpu" else device_type, *args, **kwargs)

        for owner in (device_mesh, dist):
            if hasattr(owner, "init_device_mesh"):
                patch(owner, "init_device_mesh", init_device_mesh)
        try:
            from torch.distributed.fsdp._fully_shard import _fsdp_init
        except ImportError:
            return
        if hasattr(_fsdp_init, "init_device_mesh"):
            patch(_fsdp_init, "init_device_mesh", init_device_mesh)

    def _patch_sharding_propagation(self, patch) -> None:
        try:
            from torch.distributed.tensor import _op_schema
        except ImportError:
            return
        if not hasattr(_op_schema, "_rebuild_tensor_from_dtensor_meta"):
            return

        def on_host(arg):
            meta = arg.tensor_meta
            if meta is None:
                raise AssertionError("DTensorSpec does not contain tensor_meta.")
            return torch.empty_strided(meta.shape, meta.stride, dtype=meta.dtype, device="cpu")

        patch(_op_schema, "_rebuild_tensor_from_dtensor_meta", on_host)

    def _patch_ddp(self, patch) -> None:
        from torch.nn.parallel import distributed as ddp_module

        ddp_init = ddp_module.DistributedDataParallel.__init__
        register_hook = ddp_module.DistributedDataParallel.register_comm_hook
        tracker = self.tracker

        def init(ddp, module, *args, **kwargs):
            from memlint.estimate.tracker import Category

            on_gpu = any(tracker.on_gpu(p) for p in module.parameters())
            saved = tracker.placing, tracker.category
            tracker.placing = True if on_gpu else tracker.placing
            tracker.category = Category.COMM
            try:
                ddp_init(ddp, module, *args, **kwargs)
            finally:
                tracker.placing, tracker.category = saved
            if getattr(ddp, "reducer", None) is not None:
                register_hook(ddp, None, _allreduce_in_place)
                ddp.reducer = _NoRebuild(ddp.reducer)

        patch(ddp_module.DistributedDataParallel, "__init__", init)
        # The program's own hook would need a real collective's result; the in-place one stands.
        patch(ddp_module.DistributedDataParallel, "register_comm_hook", lambda *a, **k: None)

    def _patch_fsdp_backward(self, patch) -> None:
        # FSDP2 all-gathers again and reduce-scatters in backward hooks, which autograd runs
        # with no torch function mode: its `device=` buffers would miss the emulated GPU.
        try:
            from torch.distributed.fsdp._fully_shard._fsdp_param_group import FSDPParamGroup
            from torch.distributed.fsdp._fully_shard._fsdp_state import FSDPState
        except ImportError:
            return
        for owner, name in ((FSDPParamGroup, "pre_backward"), (FSDPParamGroup, "post_backward"),
                            (FSDPState, "_root_post_backward_final_callback")):
            if hasattr(owner, name):
                patch(owner, name, _with_mode(self.devices, getattr(owner, name)))


def some_ranks(events: list, labels: list[str], workspace: int, streams: dict[int, int], summary: dict,
               workspace_at: list[int] | None = None) -> dict:
    """The peak of the ranks whose first DDP bucket is still alive when step 2 rebuilds the buckets
    (see the docstring): {"some_ranks": {held, peak_allocated, peak_reserved}}, or {} without DDP."""
    held = summary["breakdown"].get("DDP gradient buckets", 0)
    if not held or summary["steps_run"] < 2:
        return {}
    worst = summarize(events, labels, [], workspace, {}, streams, linger=held, workspace_at=workspace_at)
    return {"some_ranks": {"held": held, "peak_allocated": worst["peak_allocated"],
                           "peak_reserved": worst["peak_reserved"]}}


def _teach_dtensor_rng(mode_type: type) -> None:
    """The rule of the docstring for `mode_type` (the tracker's class), registered once."""
    try:
        from torch._prims.rng_prims import run_dtensor_rng_op
    except ImportError:  # torch < 2.12: DTensor's random ops dispatch as plain ops
        return
    if mode_type in run_dtensor_rng_op.python_key_table:
        return

    def run(mode, start_offset, end_offset, op, *args, **kwargs):
        return mode.__torch_dispatch__(op, (), args, kwargs)

    run_dtensor_rng_op.py_impl(mode_type)(run)


def leave_world() -> None:
    """The fake group ends with the fake run (a factory's run; the command form's process ends)."""
    if dist.is_initialized():
        dist.destroy_process_group()


def _with_mode(mode, method):
    from torch.overrides import _get_current_function_mode_stack

    def run(*args, **kwargs):
        if mode in _get_current_function_mode_stack():
            return method(*args, **kwargs)
        with mode:
            return method(*args, **kwargs)

    return run


class _NoRebuild:
    """DDP's reducer without the rebuild of buckets after the first step (see the docstring)."""

    def __init__(self, reducer) -> None:
        self._reducer = reducer

    def __getattr__(self, name: str):
        return getattr(self._reducer, name)

    def _rebuild_buckets(self) -> bool:
        return False


def _allreduce_in_place(state, bucket):
    future = torch.futures.Future()
    future.set_result(bucket.buffer())
    return future


class _Event:
    """A CUDA event on the one fake stream: everything it would wait for has happened."""

    def __init__(self, *args, **kwargs) -> None:
        pass

    def record(self, stream=None) -> None:
        return None

    def wait(self, stream=None) -> None:
        return None

    def synchronize(self) -> None:
        return None

    def query(self) -> bool:
        return True


def _current_stream(*args, **kwargs):
    return torch.cpu.current_stream()
