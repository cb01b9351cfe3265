"""cuDNN convolution workspaces in a fake run, from measurements (`cudnn_workspaces`).

What PyTorch does (aten/src/ATen/native/cudnn/Conv_v8.cpp, torch 2.11): each convolution
direction (forward, backward data, backward weight) is one cuDNN call, keyed by its shapes,
strides, dtype and layout; a process keeps the plan it chose per key.

* `cudnn.benchmark` off: the first plan of cuDNN's heuristics that runs; its workspace is
  allocated for the call (`run_conv_plan`) and freed after it.
* `cudnn.benchmark` on, the first call of a key (`get_plans_from_find`): every plan of the
  heuristics and fallback lists is built, those whose workspace exceeds the free memory are
  dropped (`get_available_workspace`: `cacheInfo`, the driver's free memory or the largest
  cached free block), and ONE workspace the size of the largest remaining plan's is
  allocated (halved on out-of-memory) and shared by the timed plans
  (`generate_and_filter_plans`); it is freed, the cache is emptied
  (`_cudnn_get_conv_benchmark_empty_cache`, on by default), and the fastest plan runs with
  its own workspace. Later calls of the key run that plan only.

The trial workspace is the largest workspace of any plan cuDNN offers for the call: a
property of cuDNN's engine list for the shape, not of the tensors' sizes. Measured on an
H200 (cuDNN 9.19, `benchmarks/estimate/conv_probe.py`), float32 convolutions offer FFT
engines whose workspace holds the filter's transform: e.g. (K·C + N·(C+K)·tiles) x 32·17·8
bytes for the 32x32-tile FFT (exact for the 3x3, 7x7-input backward-data of a 512-channel
layer: 1,092 MiB at batch 1), 2.6 GiB for a 4x4 stride-2 transposed convolution whose
tensors are 2 MiB; which engines are offered changes with the batch size both ways (a 5x5
convolution: 1,191 MiB at batch 32, 203 MiB at batch 128). No formula over the shapes
follows that, so the prediction uses the measured size of the very call. A call never measured
takes an estimate instead, named as such: the median workspace, per byte of the larger tensor, of the
nine nearest measured calls of its direction, dtype, kind and layout (`nearest_workspace`; leaving each
measured shape out of the table, 71% of its calls come within 50% or 1 MiB,
`benchmarks/estimate/conv_neighbours.py`); the report names the calls estimated. Eight of the networks measured again
on an H100 gave the same workspace for 1,049 of 1,060 calls, the others within 6 MiB: the
table is applied on Hopper GPUs only (`benchmarks/results/estimate_conv_probe_h100_check.json`).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from functools import cache

import torch

from memlint.estimate.cudnn_workspaces import MEASURED_ON, WORKSPACES
from memlint.estimate.summary import AUTOTUNING, EMPTY_CACHE, WORKSPACE, is_hopper

aten = torch.ops.aten


def _dims(values: Sequence[int]) -> str:
    return ",".join(str(int(v)) for v in values)


def conv_key(direction: str, dtype: str, x_shape: Sequence[int], w_shape: Sequence[int], stride: Sequence[int],
             padding: Sequence[int], dilation: Sequence[int], transposed: bool, output_padding: Sequence[int],
             groups: int, channels_last: bool = False) -> str:
    """One cuDNN call: its direction and what PyTorch's plan cache tells apart."""
    return (f"{direction} {dtype} x{_dims(x_shape)} w{_dims(w_shape)} s{_dims(stride)} p{_dims(padding)} "
            f"d{_dims(dilation)} {'T' if transposed else 'C'} o{_dims(output_padding)} g{int(groups)}"
            + (" cl" if channels_last else ""))


def _channels_last(t: torch.Tensor) -> bool:
    return t.dim() == 4 and not t.is_contiguous() and t.is_contiguous(memory_format=torch.channels_last)


def calls_of(func, args: tuple) -> list[str]:
    """The cuDNN calls (keys) of one `aten.convolution` or `aten.convolution_backward`, in order."""
    if func is aten.convolution.default:
        x, w, _, stride, padding, dilation, transposed, output_padding, groups = args[:9]
        directions = ["forward"]
    elif func is aten.convolution_backward.default:
        _, x, w, _, stride, padding, dilation, transposed, output_padding, groups, mask = args[:11]
        directions = [d for d, wanted in zip(("backward_data", "backward_weight"), mask) if wanted]
    else:
        return []
    dtype = str(x.dtype).removeprefix("torch.")
    # PyTorch filters cuDNN's plans by these two (Conv_v8.cpp `filterEngineConfigs`); the table holds the defaults,
    # so a call under other settings has a key of its own, never measured.
    flags = (" deterministic" if torch.backends.cudnn.deterministic else "") + \
        ("" if torch.backends.cudnn.allow_tf32 else " no-tf32")
    return [conv_key(d, dtype, x.shape, w.shape, stride, padding, dilation, transposed, output_padding, groups,
                     _channels_last(x)) + flags for d in directions]


_ELEMENT = {"float32": 4, "float16": 2, "bfloat16": 2, "float64": 8}
# Nearest measured calls for a call never measured (see the docstring): how many, and the weight of each
# feature's squared difference (log2 of in/out channels, spatial elements, kernel elements, batch; stride).
NEIGHBOURS = 9
_WEIGHTS = (1.0, 1.0, 1.0, 4.0, 4.0, 0.25)


def parse_key(key: str) -> tuple[str, tuple[float, ...], int] | None:
    """(direction dtype kind, features, bytes of the larger tensor) of a key, None for an unknown dtype."""
    parts = key.split(" ")
    direction, dtype = parts[0], parts[1]
    if dtype not in _ELEMENT:
        return None
    x, w, stride, pad, dil = ([int(v) for v in part[1:].split(",")] for part in parts[2:7])
    transposed = parts[7] == "T"
    channels_out = w[1] * int(parts[9][1:]) if transposed else w[0]
    spatial = []
    for i, size in enumerate(x[2:]):
        span = dil[i] * (w[2 + i] - 1)
        spatial.append((size - 1) * stride[i] - 2 * pad[i] + span + 1 if transposed
                       else (size + 2 * pad[i] - span - 1) // stride[i] + 1)
    larger = max(math.prod(x), x[0] * channels_out * math.prod(spatial)) * _ELEMENT[dtype]
    features = (math.log2(x[1]), math.log2(channels_out), math.log2(max(1, math.prod(x[2:]))),
                math.log2(math.prod(w[2:])), float(stride[0]), math.log2(x[0]))
    # The layout is part of the kind: channels-last calls run cuDNN's NHWC engines, whose workspaces
    # differ from the NCHW ones' (a 3x3 fp16 layer of 64 channels on 640x959 pixels: 21 MiB, where its
    # NCHW neighbours take 3.6 times its 150 MiB tensors).
    layout = " cl" if parts[-1] == "cl" else ""
    return f"{direction} {dtype} {parts[7]}{layout}", features, max(larger, 1)


@cache
def _measured(column: int) -> dict[str, list[tuple[tuple[float, ...], float]]]:
    """The table's calls by direction, dtype and kind: (features, workspace per byte of the larger tensor)."""
    out: dict[str, list[tuple[tuple[float, ...], float]]] = {}
    for key, sizes in WORKSPACES.items():
        parsed = parse_key(key)
        if parsed and sizes[column] is not None:
            kind, features, larger = parsed
            out.setdefault(kind, []).append((features, sizes[column] / larger))
    return out


@cache
def nearest_workspace(key: str, column: int) -> int | None:
    """The workspace of a call the table does not hold, from its nearest measured calls (column 1: the plan
    cudnn.benchmark chose, 2: the heuristics' plan); None where nothing of its kind was measured."""
    parsed = parse_key(key)
    if parsed is None:
        return None
    kind, features, larger = parsed
    measured = _measured(column)
    # a layout never measured for this direction, dtype and kind: the other layout's calls
    return nearest(features, larger, measured.get(kind) or measured.get(kind.removesuffix(" cl"), []))


def nearest(features: tuple[float, ...], larger: int, measured: list[tuple[tuple[float, ...], float]]) -> int | None:
    """The median workspace per tensor byte of the NEIGHBOURS measured calls nearest to `features`, times `larger`."""
    near = sorted((sum(w * (a - b) ** 2 for w, a, b in zip(_WEIGHTS, features, other)), ratio)
                  for other, ratio in measured)[:NEIGHBOURS]
    return int(statistics.median(ratio for _, ratio in near) * larger) if near else None


class ConvWorkspaces:
    """The workspaces of a fake run's convolutions, as the process on the GPU would take them."""

    def __init__(self, gpu: str = "") -> None:
        # cuDNN offers other engines on other architectures: the measurements (Hopper) hold on Hopper only
        self.table = WORKSPACES if is_hopper(gpu) else {}
        self.tuned: set[str] = set()  # keys autotuned so far (PyTorch's per-process plan cache)
        self.unknown: dict[str, bool] = {}  # key -> benchmark on: calls with no measurement
        self.calls = 0
        self.unmeasured_calls = 0
        self.estimated_largest = 0
        self.largest_trial = 0
        self.trial_key = ""

    def transients(self, keys: list[str], benchmark: bool) -> list[tuple[str, int]]:
        """What the calls allocate and free, in order: (category, bytes), or (EMPTY_CACHE marker, 0)."""
        out: list[tuple[str, int]] = []
        for key in keys:
            self.calls += 1
            trial, chosen, plain = self.table.get(key, (None, None, None))
            if benchmark and key not in self.tuned:
                self.tuned.add(key)
                if trial is None:  # the trial is not estimated; the plan it would choose is
                    self.unknown[key] = True
                    self.unmeasured_calls += 1
                    estimate = nearest_workspace(key, 1) if self.table else None
                    # Find empties the cache after its trials whatever their size (`_cudnn_get_conv_benchmark_empty_cache`)
                    out.append(("", EMPTY_CACHE))
                    if estimate:
                        self.estimated_largest = max(self.estimated_largest, estimate)
                        out.append((WORKSPACE, estimate))
                    continue
                if trial > self.largest_trial:
                    self.largest_trial, self.trial_key = trial, key
                out += [(AUTOTUNING, trial), ("", EMPTY_CACHE)]
                if chosen:
                    out.append((WORKSPACE, chosen))
                continue
            size = chosen if benchmark else plain
            if size is None:
                self.unknown.setdefault(key, benchmark)
                self.unmeasured_calls += 1
                if self.table:
                    size = nearest_workspace(key, 1 if benchmark else 2) or 0
                    self.estimated_largest = max(self.estimated_largest, size)
            if size:
                out.append((WORKSPACE, size))
        return out

    def summary(self) -> dict:
        unknown_tuned = sum(self.unknown.values())
        return {"conv_calls": self.calls, "conv_calls_unmeasured": self.unmeasured_calls,
                "conv_unmeasured": len(self.unknown),
                "autotuning_unmeasured": unknown_tuned, "autotuning_largest": self.largest_trial,
                "autotuning_largest_call": self.trial_key, "estimated_largest": self.estimated_largest,
                "measured_on": MEASURED_ON["gpu"] if self.table else "",
                "unmeasured_examples": sorted(self.unknown)[:3]}
