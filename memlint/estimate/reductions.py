"""The staging buffer of CUDA's reduction kernel: what `sum` and `mean` take beyond their
output on the GPU, from the input's shape and strides.

ATen's reduction kernel (`Reduce.cuh`) splits a long reduction across thread blocks when
there are few outputs and many inputs per output; the blocks then combine partial results
through a global-memory buffer the kernel takes from the caching allocator for the launch
and gives back after it. Reducing a tall matrix over its rows (a Linear layer's bias
gradient, `grad.sum(0)` of a batch x features gradient) takes the largest one: for a
2048 x 784 float32 gradient on an H100, 32 blocks per output x 784 outputs x 128 lanes x
4 bytes = 12.25 MiB, measured so (a VAE's backward peaks on it). Full reductions and
reductions along the contiguous dimension combine within a block and take a few bytes.

`staging_bytes` follows `setReduceConfig` and `ReduceConfig::global_memory_size` of
PyTorch 2.11 (the iterator's dimension order and coalescing included); the GPU enters
through its multiprocessor count and threads per multiprocessor (`GPU_SHAPE`).
"""

from __future__ import annotations

from collections.abc import Sequence

MAX_REDUCE_THREADS = 512
WARP = 32
MIN_VALUES_PER_THREAD = 16
MAX_VALUES_PER_THREAD = 256
# (multiprocessors, threads per multiprocessor), by a word of the GPU's name; H100 SXM by default.
GPU_SHAPE = {"h100": (132, 2048), "h200": (132, 2048), "h800": (132, 2048), "gh200": (132, 2048),
             "b200": (148, 2048), "a100": (108, 2048), "v100": (80, 2048), "t4": (40, 1024),
             "a10g": (80, 1536), "l4": (58, 1536), "l40s": (142, 1536), "a6000": (84, 1536),
             "3090": (82, 1536), "4090": (128, 1536)}
DEFAULT_SHAPE = GPU_SHAPE["h100"]


def gpu_shape(name: str) -> tuple[int, int]:
    """(multiprocessors, threads per multiprocessor) of the GPU named `name`."""
    words = name.lower().replace("-", " ").split()
    for key in sorted(GPU_SHAPE, key=len, reverse=True):  # "l40s" before "l4", which it starts with
        if any(word.startswith(key) for word in words):
            return GPU_SHAPE[key]
    return DEFAULT_SHAPE


def _last_pow2(n: int) -> int:
    return 1 << (max(n, 1).bit_length() - 1)


def _div_up(a: int, b: int) -> int:
    return -(-a // b)


def _iterator(shape: Sequence[int], strides: Sequence[int], dims: set[int], element: int) -> tuple[list, list, list]:
    """The reduction's TensorIterator: (shape, input byte strides, output byte strides) with the
    reduced dimensions first, then by increasing stride, adjacent dimensions coalesced."""
    out_strides, step = [0] * len(shape), element
    for d in reversed(range(len(shape))):  # the output: contiguous over the kept dimensions
        if d not in dims:
            out_strides[d] = step
            step *= shape[d]
    order = list(reversed(range(len(shape))))  # dimension 0 of the iterator is the fastest moving

    def should_swap(a: int, b: int) -> int:
        if (out_strides[a] == 0) != (out_strides[b] == 0):
            return 1 if out_strides[b] == 0 else -1
        for stride in (out_strides, strides):
            if stride[a] == 0 or stride[b] == 0:
                continue
            if stride[a] != stride[b]:
                return -1 if stride[a] < stride[b] else 1
            if shape[a] > shape[b]:
                return 1
        return 0

    for i in range(1, len(order)):  # ATen's insertion sort, ambiguous comparisons kept in place
        j = i
        for k in range(i - 1, -1, -1):
            comparison = should_swap(order[k], order[j])
            if comparison > 0:
                order[k], order[j] = order[j], order[k]
                j = k
            elif comparison < 0:
                break
    sizes = [shape[d] for d in order]
    ins = [strides[d] * element for d in order]
    outs = [out_strides[d] for d in order]
    kept = 0
    for d in range(1, len(sizes)):
        if sizes[kept] == 1 or sizes[d] == 1 or all(sizes[kept] * s[kept] == s[d] for s in (ins, outs)):
            if sizes[kept] == 1:
                ins[kept], outs[kept] = ins[d], outs[d]
            sizes[kept] *= sizes[d]
        else:
            kept += 1
            sizes[kept], ins[kept], outs[kept] = sizes[d], ins[d], outs[d]
    count = kept + 1 if sizes else 0
    return sizes[:count], ins[:count], outs[:count]


def staging_bytes(shape: Sequence[int], strides: Sequence[int], dims: Sequence[int] | None, element: int,
                  accumulate: int, gpu: tuple[int, int] = DEFAULT_SHAPE, offset: int = 0) -> int:
    """Bytes of the global-memory buffer a CUDA `sum`/`mean` of a tensor (`shape`, `strides` in
    elements, `element` bytes each) over `dims` (None or empty: all) takes, accumulating in
    `accumulate` bytes; 0 when its blocks need none."""
    numel = 1
    for n in shape:
        numel *= n
    if numel == 0 or not shape:
        return 0
    reduced = {d % len(shape) for d in dims} if dims else set(range(len(shape)))
    sizes, ins, outs = _iterator(shape, strides, reduced, element)
    num_reduce = sum(1 for s in outs if s == 0)
    outputs = 1
    for n, s in zip(sizes, outs):
        if s != 0:
            outputs *= n
    per_output = numel // outputs
    fastest = num_reduce == len(sizes) or ins[0] < ins[num_reduce]
    dim0, dim1 = (per_output, outputs) if fastest else (outputs, per_output)
    moving = ins[0] if fastest else ins[num_reduce]
    output_vec = 1
    input_vec = 8 if element == 2 else 4  # vt0 = 4; 16-bit sums load 8 at a time (and so do not vectorize)
    if moving == element:
        if fastest and dim0 > 128 and num_reduce == 1 and 4 >= input_vec:
            dim0 //= input_vec
        elif not fastest:
            output_vec = 4
            for n in (offset, sizes[num_reduce], *(s // element for i, s in enumerate(ins) if i != num_reduce)):
                while n % output_vec:
                    output_vec //= 2
            dim0 //= output_vec
    threads = MAX_REDUCE_THREADS // output_vec
    dim0_pow2 = _last_pow2(dim0) if dim0 < threads else threads
    dim1_pow2 = _last_pow2(dim1) if dim1 < threads else threads
    width = min(dim0_pow2, WARP)
    height = min(dim1_pow2, threads // width)
    width = min(dim0_pow2, threads // height)
    step_input = step_output = 1
    block_x_reduce = fastest
    if fastest:
        step_input *= width
    else:
        step_output *= width
    values = _div_up(per_output, step_input)
    split_warps = values >= min(height * MIN_VALUES_PER_THREAD, MAX_VALUES_PER_THREAD)
    if split_warps:
        step_input *= height
    else:
        step_output *= height
    multiprocessors, per_multiprocessor = gpu
    target_grid = multiprocessors * (per_multiprocessor // (width * height))
    grid = _div_up(outputs // output_vec, step_output)
    values = _div_up(per_output, step_input)
    if not (split_warps and values >= MAX_VALUES_PER_THREAD and grid <= target_grid):
        return 0
    ctas = max(min(_div_up(target_grid, grid), _div_up(values, MIN_VALUES_PER_THREAD)),
               _div_up(values, MAX_VALUES_PER_THREAD))
    if ctas <= 1:
        return 0
    size = accumulate * outputs * ctas
    return size if block_x_reduce else size * width * output_vec
