"""A model of PyTorch's CUDA caching allocator (c10/cuda/CUDACachingAllocator.cpp,
default settings), replayed over the allocations and frees of a fake run, to
predict `max_memory_allocated` (block sizes, as the allocator counts them) and
`max_memory_reserved` (the segments it took from the driver).

Assumptions, stated because the real allocator has options this ignores:
* sizes round up to 512 bytes (`kMinBlockSize`);
* requests of at most 1 MiB come from a small pool of 2 MiB segments;
  larger ones from a large pool: 20 MiB segments below 10 MiB, else the
  request rounded up to 2 MiB;
* a free block is reused best-fit (smallest that fits, then lowest address)
  within its pool and split when the rest is at least 512 bytes (small) or
  more than 1 MiB (large); an unsplit large block counts whole as allocated;
* adjacent free blocks of one segment merge; segments are returned only by
  `empty_cache` (which cudnn.benchmark's autotuning calls; no OOM retry, no
  `expandable_segments`, no `max_split_size_mb`);
* each stream has pools of its own: a block freed goes back to the stream it was
  allocated on and serves only that stream again (FSDP's all-gather and
  reduce-scatter streams hold segments the compute stream cannot reuse).
"""

from __future__ import annotations

import bisect
import itertools
from dataclasses import dataclass, field

MIN_BLOCK = 512
SMALL_SIZE = 1 << 20
SMALL_BUFFER = 2 << 20
LARGE_BUFFER = 20 << 20
MIN_LARGE_ALLOC = 10 << 20
ROUND_LARGE = 2 << 20


def round_size(size: int) -> int:
    return MIN_BLOCK if size < MIN_BLOCK else -(-size // MIN_BLOCK) * MIN_BLOCK


def segment_size(size: int) -> int:
    if size <= SMALL_SIZE:
        return SMALL_BUFFER
    if size < MIN_LARGE_ALLOC:
        return LARGE_BUFFER
    return -(-size // ROUND_LARGE) * ROUND_LARGE


@dataclass(eq=False)
class _Block:
    start: int
    size: int
    small: bool
    stream: int = 0
    free: bool = True
    prev: "_Block | None" = None
    next: "_Block | None" = None


@dataclass
class Allocator:
    allocated: int = 0
    reserved: int = 0
    peak_allocated: int = 0
    peak_reserved: int = 0
    _pools: dict[tuple[int, bool], list] = field(default_factory=dict)  # (stream, small) -> free blocks
    _live: dict[int, _Block] = field(default_factory=dict)
    _address: int = 0
    _order: itertools.count = field(default_factory=itertools.count)
    trace: list | None = None  # when a list: memory_viz's trace entries, in order (`snapshot`)
    segments: list = field(default_factory=list)  # the first block of each segment, in order

    def _event(self, action: str, block: "_Block", size: int, note: str = "") -> None:
        if self.trace is not None:
            frames = [{"filename": "memlint estimate (predicted)", "line": 0, "name": note}] if note else []
            self.trace.append({"action": action, "addr": block.start, "size": size, "stream": 0, "frames": frames,
                               "time_us": len(self.trace)})

    def malloc(self, key: int, nbytes: int, note: str = "", stream: int = 0) -> None:
        size = round_size(nbytes)
        small = size <= SMALL_SIZE
        pool = self._pools.setdefault((stream, small), [])
        index = bisect.bisect_left(pool, (size, -1))
        if index < len(pool):
            block = pool.pop(index)[2]
        else:
            grown = segment_size(size)
            block = _Block(self._address, grown, small, stream)
            self._address += grown
            self.reserved += grown
            self.peak_reserved = max(self.peak_reserved, self.reserved)
            self.segments.append(block)
            self._event("segment_alloc", block, grown)
        rest = block.size - size
        if (rest >= MIN_BLOCK) if small else (rest > SMALL_SIZE):
            tail = _Block(block.start + size, rest, small, block.stream, True, block, block.next)
            if block.next is not None:
                block.next.prev = tail
            block.next, block.size = tail, size
            self._insert(tail)
        block.free = False
        self._live[key] = block
        self._event("alloc", block, block.size, note)
        self.allocated += block.size
        self.peak_allocated = max(self.peak_allocated, self.allocated)

    def free(self, key: int) -> None:
        block = self._live.pop(key, None)
        if block is None:
            return
        self.allocated -= block.size
        self._event("free_requested", block, block.size)
        self._event("free_completed", block, block.size)
        block.free = True
        for neighbour in (block.prev, block.next):
            if neighbour is not None and neighbour.free:
                self._remove(neighbour)
                if neighbour is block.prev:
                    neighbour.size += block.size
                    neighbour.next = block.next
                    if block.next is not None:
                        block.next.prev = neighbour
                    block = neighbour
                else:
                    block.size += neighbour.size
                    block.next = neighbour.next
                    if neighbour.next is not None:
                        neighbour.next.prev = block
        self._insert(block)

    def empty_cache(self) -> None:
        """Return every segment that is one free block to the driver."""
        kept = []
        for head in self.segments:
            if head.free and head.next is None:
                self._remove(head)
                self.reserved -= head.size
                self._event("segment_free", head, head.size)
            else:
                kept.append(head)
        self.segments = kept

    def largest_free(self) -> int:
        """The largest cached free block (what `cacheInfo` reports beside the driver's free memory)."""
        return max((pool[-1][0] for pool in self._pools.values() if pool), default=0)

    def _insert(self, block: _Block) -> None:
        bisect.insort(self._pools.setdefault((block.stream, block.small), []), (block.size, block.start, block))

    def _remove(self, block: _Block) -> None:
        pool = self._pools[(block.stream, block.small)]
        index = bisect.bisect_left(pool, (block.size, block.start))
        del pool[index]


def replay(events: list[tuple[int, int, int]]) -> Allocator:
    """`events`: (+1, key, bytes) for an allocation, (-1, key, 0) for its free, in order."""
    model = Allocator()
    for sign, key, nbytes in events:
        if sign > 0:
            model.malloc(key, nbytes)
        else:
            model.free(key)
    return model
