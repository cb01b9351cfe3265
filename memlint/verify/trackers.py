"""What a probe reads: device memory in use now, and its peak since the last read.

Imported only in the child process (it imports torch).

* `CudaTracker`: `torch.cuda.memory_allocated()` after a synchronize, and
  `max_memory_allocated()` for the peak (reset at each read).
* `StorageTracker` (no GPU needed): a `TorchDispatchMode` that sees every op
  and counts each output storage that is new (not already tracked and not
  the storage of one of the op's inputs), rounded as the CUDA caching
  allocator rounds (`max(512, ceil(n / 512) * 512)` bytes), until a weakref
  callback on the storage object says it was freed. Storages, not tensors:
  autograd keeps the C++ tensor alive after its Python object dies, while a
  Python storage object lives exactly as long as its C++ storage. Tensors
  created before the tracker starts are not counted. Only the thread that
  installed it is tracked (dispatch modes are thread-local; CPU backward runs
  on the calling thread).
* `ClockTracker` (a timing run on CPU, for the speed rules): measures no
  memory. The storage tracker's per-op Python overhead would swamp and
  scatter the step time (a small MLP: 1.2 ms per step alone, 6-19 ms under
  the tracker), so loops are timed in a run of their own, with one intra-op
  thread unless OMP_NUM_THREADS is set. On a GPU the timing run keeps
  `CudaTracker` without its synchronize: a synchronize per step would take
  away the overlap of host and device that a per-step sync in the script
  (`empty_cache()`) costs, and hide it (an H200, ML004: 1.02x and 1.17x with
  it). Without it, the median time between probes over the steady state is
  the time per step, host and device together.

Allocation sites (`memlint verify -- COMMAND`, `sites=True`): where the
memory that a probed site keeps was allocated. `mark(probe)` starts the
window (after the warm-up iterations), `allocations(probe)` (once the probe
ran its iterations) groups what was allocated since and is still alive by
its three innermost Python frames outside torch, memlint and the standard
library, largest first. The storage tracker notes the frames of each new
storage as it counts it; on CUDA the allocator's own history
(`torch.cuda.memory._record_memory_history`, Python stacks only) is switched
on at the first mark and read with `_snapshot()`: blocks allocated before it
carry no frames, so the window is the probed iterations. With a snapshot
path, that snapshot is also written (pickle, for pytorch.org/memory_viz).
"""

from __future__ import annotations

import math
import os
import pickle
import sys
import sysconfig
import weakref

import torch
from torch.utils._python_dispatch import TorchDispatchMode

MIB = 1024 * 1024


def rounded(nbytes: int) -> int:
    return max(512, math.ceil(nbytes / 512) * 512)


_SKIP = tuple(
    os.path.join(os.path.realpath(d), "")
    for d in {
        os.path.dirname(torch.__file__),
        os.path.dirname(os.path.abspath(__file__)),
        sysconfig.get_paths()["stdlib"],
    }
)
MAX_SITES = 5


def _outside(filename: str) -> bool:
    """A frame of the user's code: not torch, memlint (its generated sitecustomize included) or the stdlib."""
    if filename.startswith("<") or os.path.basename(filename) == "sitecustomize.py":
        return False
    return not os.path.realpath(filename).startswith(_SKIP)


def python_frames(limit: int = 3) -> tuple[tuple[str, int, str], ...]:
    """The innermost `limit` frames of the caller's Python stack outside torch, memlint and the stdlib."""
    found = []
    frame = sys._getframe(1)
    while frame is not None and len(found) < limit:
        code = frame.f_code
        if _outside(code.co_filename):
            found.append((code.co_filename, frame.f_lineno, code.co_name))
        frame = frame.f_back
    return tuple(found)


def top_sites(sized: dict[tuple, int]) -> list[dict]:
    """frames -> bytes, as the largest `MAX_SITES` sites for the results file."""
    ranked = sorted(sized.items(), key=lambda kv: -kv[1])[:MAX_SITES]
    return [{"frames": [list(f) for f in frames], "bytes": nbytes} for frames, nbytes in ranked]


def _oom_error(message: str) -> BaseException:
    cls = getattr(torch, "OutOfMemoryError", None) or getattr(torch.cuda, "OutOfMemoryError", None) or MemoryError
    return cls(message)


def kept_bytes(value, counts, limit: int = 200_000) -> int:
    """The memory that `value` (a finding's container: a list, a dict, a meter, a tensor)
    keeps alive: the storages of the tensors it holds and of everything their autograd
    graphs saved (`_saved_*` of each node, the tensors a custom Function put on `ctx`),
    each storage once, rounded as the allocator rounds; `counts(storage)` says which
    storages are the tracker's (device memory, or on CPU the live storages not moved to
    the host). Parameters and modules are left out: they are not what the store keeps."""
    sizes: dict[int, int] = {}
    seen: set[int] = set()
    stack = [value]
    while stack and len(seen) < limit:
        item = stack.pop()
        if id(item) in seen or item is None or isinstance(item, (int, float, str, bytes, bool, torch.nn.Module)):
            continue
        seen.add(id(item))
        if isinstance(item, torch.Tensor):
            if isinstance(item, torch.nn.Parameter):
                continue
            try:
                storage = item.untyped_storage()
                if counts(storage):
                    sizes[storage._cdata] = rounded(storage.nbytes())
            except Exception:  # noqa: BLE001 - sparse, wrapper subclasses
                pass
            if item.grad_fn is not None:
                stack.append(item.grad_fn)
            elif item.requires_grad:  # a leaf that is no parameter keeps its gradient
                stack.append(item.grad)
        elif hasattr(item, "next_functions"):  # an autograd node
            for name in dir(item):
                if name.startswith("_saved_"):
                    try:
                        stack.append(getattr(item, name))
                    except Exception:  # noqa: BLE001 - freed by backward
                        pass
            stack.extend(getattr(item, "__dict__", {}).values())  # a custom Function's ctx attributes
            try:
                stack.extend(item.saved_tensors)
            except Exception:  # noqa: BLE001 - not a custom Function, or freed
                pass
            stack.extend(fn for fn, _ in item.next_functions if fn is not None)
        elif isinstance(item, (list, tuple, set, frozenset)):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif hasattr(item, "__dict__") and not isinstance(item, type) and not callable(item):
            stack.extend(vars(item).values())  # a meter, a ModelOutput's fields
    return sum(sizes.values())


class CudaTracker:
    device = "cuda"

    @staticmethod
    def counts(storage) -> bool:
        return storage.device.type == "cuda"

    def __init__(self, limit_bytes: int | None = None, sync: bool = True, sites: bool = False,
                 snapshot: str | None = None) -> None:
        self.limit_bytes = limit_bytes
        self.sync = sync
        self.sites = sites
        self.snapshot = snapshot
        self.recording = False

    def mark(self, probe: int) -> None:
        if self.sites and not self.recording:
            torch.cuda.memory._record_memory_history(context="alloc", stacks="python", max_entries=200_000)
            self.recording = True

    def allocations(self, probe: int) -> list[dict]:
        if not self.recording:
            return []
        snap = torch.cuda.memory._snapshot()
        if self.snapshot:
            with open(self.snapshot, "wb") as handle:
                pickle.dump(snap, handle)
        sized: dict[tuple, int] = {}
        for segment in snap.get("segments", []):
            for block in segment.get("blocks", []):
                if block.get("state") != "active_allocated" or not block.get("frames"):
                    continue
                frames = tuple(
                    (f["filename"], f["line"], f["name"]) for f in block["frames"] if _outside(f.get("filename", "<"))
                )[:3]
                if frames:
                    sized[frames] = sized.get(frames, 0) + block["size"]
        return top_sites(sized)

    def start(self) -> None:
        torch.cuda.init()
        if self.limit_bytes:
            total = torch.cuda.get_device_properties(0).total_memory
            torch.cuda.set_per_process_memory_fraction(min(1.0, self.limit_bytes / total))
        torch.cuda.reset_peak_memory_stats()

    def stop(self) -> None:
        pass

    def read(self) -> tuple[int, int]:
        if self.sync:
            torch.cuda.synchronize()
        used, peak = torch.cuda.memory_allocated(), torch.cuda.max_memory_allocated()
        torch.cuda.reset_peak_memory_stats()
        return used, peak

    def describe(self) -> str:
        return torch.cuda.get_device_name(0)


class StorageTracker(TorchDispatchMode):
    device = "cpu"

    def __init__(self, limit_bytes: int | None = None, sites: bool = False) -> None:
        super().__init__()
        self.live: dict[int, int] = {}
        self.bytes = 0
        self.peak = 0
        self.limit_bytes = limit_bytes
        self.sites = sites
        self.born: dict[int, tuple[int, tuple]] = {}  # storage -> (sequence number, frames)
        self.seq = 0
        self.marks: dict[int, int] = {}
        self.last_read = self.previous_read = 0
        # Storages that would be host memory on a GPU: moved there explicitly (`to_host`), or
        # made by an op all of whose tensor inputs are (`torch.cat` of tensors moved to the CPU).
        self.host: set[int] = set()

    def mark(self, probe: int) -> None:
        self.marks[probe] = self.seq

    def counts(self, storage) -> bool:
        return storage._cdata in self.live

    # What is allocated in the last iteration and alive at its end is not growth: this
    # step's gradients, activations and outputs, freed by the next one. Only storages born
    # before the last iteration began and still alive count, over one iteration fewer.
    excludes_last = True

    def allocations(self, probe: int) -> list[dict]:
        since = self.marks.get(probe, 0)
        until = self.previous_read
        sized: dict[tuple, int] = {}
        for key, (seq, frames) in self.born.items():
            if since < seq <= until and frames and key in self.live:
                sized[frames] = sized.get(frames, 0) + self.live[key]
        return top_sites(sized)

    def start(self) -> None:
        self.__enter__()

    def stop(self) -> None:
        try:
            self.__exit__(None, None, None)
        except Exception:  # noqa: BLE001 - the mode stack was changed by the script
            pass

    def read(self) -> tuple[int, int]:
        self.previous_read, self.last_read = self.last_read, self.seq  # iteration boundaries
        peak, self.peak = self.peak, self.bytes
        return self.bytes, max(peak, self.bytes)

    def describe(self) -> str:
        return "cpu (live-storage tracker)"

    def _freed(self, key: int) -> None:
        self.bytes -= self.live.pop(key, 0)
        self.born.pop(key, None)

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        inputs = set()
        _storages(args, inputs)
        if kwargs:
            _storages(kwargs.values(), inputs)
        outputs: list = []
        _tensors(out, outputs)
        grew = False
        on_host = bool(inputs) and inputs <= self.host
        for value in outputs:
            try:
                storage = value.untyped_storage()
            except Exception:  # noqa: BLE001 - tensors without storage (sparse, wrappers)
                continue
            key = storage._cdata
            if key in inputs or key in self.live:
                continue
            if on_host:
                self._host(storage)
                continue
            nbytes = storage.nbytes()
            if nbytes == 0 or storage.device.type == "meta":
                continue
            size = rounded(nbytes)
            self.live[key] = size
            self.bytes += size
            if self.sites:
                self.seq += 1
                self.born[key] = (self.seq, python_frames())
            weakref.finalize(storage, self._freed, key)
            grew = True
        if grew:
            if self.bytes > self.peak:
                self.peak = self.bytes
            if self.limit_bytes is not None and self.bytes > self.limit_bytes:
                raise _oom_error(
                    f"memlint verify: out of memory: {self.bytes / MIB:.1f} MiB live exceeds the "
                    f"--memory-limit of {self.limit_bytes / MIB:.0f} MiB"
                )
        return out

    def to_host(self, value):
        """`value.cpu()` in the script: on a CPU-only run the copy is the same
        storage, but on a GPU it would be host memory: stop counting it."""
        if isinstance(value, torch.Tensor):
            try:
                key = value.untyped_storage()._cdata
            except Exception:  # noqa: BLE001
                return value
            self.bytes -= self.live.pop(key, 0)
            self.born.pop(key, None)
            self._host(value.untyped_storage())
        return value

    def _host(self, storage) -> None:
        key = storage._cdata
        if key not in self.host:
            self.host.add(key)
            weakref.finalize(storage, self.host.discard, key)


_Tensor = torch.Tensor


def _tensors(value, found: list) -> None:
    """The tensors in an op's output (a tensor, or nested tuples/lists of them)."""
    if isinstance(value, _Tensor):
        found.append(value)
    elif isinstance(value, (tuple, list)):
        for item in value:
            _tensors(item, found)


def _storages(values, found: set) -> None:
    for value in values:
        if isinstance(value, _Tensor):
            try:
                found.add(value.untyped_storage()._cdata)
            except Exception:  # noqa: BLE001
                pass
        elif isinstance(value, (tuple, list)):
            _storages(value, found)


class ClockTracker:
    device = "cpu"
    single_thread = True  # unless OMP_NUM_THREADS says otherwise (child.py)

    def start(self) -> None:
        pass

    def stop(self) -> None:
        pass

    def read(self) -> tuple[int, int]:
        return 0, 0

    def describe(self) -> str:
        return f"cpu (timing only, {torch.get_num_threads()} thread{'s' if torch.get_num_threads() > 1 else ''})"


def make(device: str, limit_bytes: int | None = None, timing: bool = False, sites: bool = False,
         snapshot: str | None = None):
    if device == "auto":
        device = "cuda" if torch.cuda.is_available() else "cpu"
    if device == "cuda":
        return CudaTracker(limit_bytes, sync=not timing, sites=sites, snapshot=snapshot)
    if timing:
        return ClockTracker()
    return StorageTracker(limit_bytes, sites=sites)
