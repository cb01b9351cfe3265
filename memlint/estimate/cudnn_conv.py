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
follows that, so the prediction uses the measured size of the very call. For a call never
measured, the plan cuDNN's heuristics pick is typical: its workspace is close to the bytes of
the call's input and output for kernels wider than 1x1 (the median over the measured calls,
`typical_ratios`), which the prediction counts, naming the call as unmeasured; the autotuning's
trial of such a call has no typical size and is left out, named. Eight of the networks measured again
on an H100 gave the same workspace for 1,049 of 1,060 calls, the others within 6 MiB: the
table is applied on Hopper GPUs only (`benchmarks/results/estimate_conv_probe_h100_check.json`).
"""

from __future__ import annotations

import functools
import re
import statistics
from collections.abc import Sequence

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


_KEY = re.compile(r"(\S+) (\S+) x([\d,]+) w([\d,]+) s([\d,]+) p([\d,]+) d([\d,]+) ([CT]) o([\d,]+) g(\d+)")
_ELEMENT = {"float32": 4, "float64": 8}
# Calls whose tensors are smaller than this are left out of the typical ratios: workspaces have a
# floor that dwarfs small tensors, and small tensors never decide a peak.
TYPICAL_FROM = 8 << 20


def _parse(key: str) -> tuple[str, str, int] | None:
    """(direction, kernel class, bytes of the call's input and output) of a call's key; None if it is not one."""
    m = _KEY.match(key)
    if not m:
        return None
    x, w, stride, pad, dil, out_pad = ([int(v) for v in m.group(i).split(",")] for i in (3, 4, 5, 6, 7, 9))
    transposed, groups = m.group(8) == "T", int(m.group(10))
    if len(x) < 3 or len(w) != len(x) or len(stride) != len(x) - 2:
        return None
    spatial = range(len(x) - 2)
    if transposed:
        channels = w[1] * groups
        sizes = [(x[i + 2] - 1) * stride[i] - 2 * pad[i] + dil[i] * (w[i + 2] - 1) + out_pad[i] + 1 for i in spatial]
    else:
        channels = w[0]
        sizes = [(x[i + 2] + 2 * pad[i] - dil[i] * (w[i + 2] - 1) - 1) // stride[i] + 1 for i in spatial]
    elements = _product(x) + x[0] * channels * _product(sizes)
    kind = "grouped" if groups > 1 else "pointwise" if _product(w[2:]) == 1 else "spatial"
    return m.group(1), kind, elements * _ELEMENT.get(m.group(2), 2)


def _product(values) -> int:
    out = 1
    for v in values:
        out *= v
    return out


@functools.cache
def typical_ratios() -> dict[tuple[str, str], float]:
    """(direction, kernel class) -> the median workspace of the measured calls with benchmark off, over
    the bytes of their input and output: about 1.0x for spatial kernels (1.1x for the weight's
    gradient; the middle half of the calls within 0.7x to 1.35x); for 1x1 kernels none but for the
    weight's gradient (1.0x); none for grouped ones."""
    ratios: dict[tuple[str, str], list[float]] = {}
    for key, (_, _, plain) in WORKSPACES.items():
        parsed = _parse(key)
        if plain is not None and parsed and parsed[2] >= TYPICAL_FROM:
            ratios.setdefault(parsed[:2], []).append(plain / parsed[2])
    return {kind: statistics.median(values) for kind, values in ratios.items()}


def typical_workspace(key: str) -> int:
    """The workspace a call never measured typically takes: its input's and output's bytes times the
    median ratio of the measured calls of the same direction and kernel class."""
    parsed = _parse(key)
    if parsed is None:
        return 0
    return int(typical_ratios().get(parsed[:2], 0) * parsed[2])


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


class ConvWorkspaces:
    """The workspaces of a fake run's convolutions, as the process on the GPU would take them."""

    def __init__(self, gpu: str = "") -> None:
        # cuDNN offers other engines on other architectures: the measurements (Hopper) hold on Hopper only
        self.table = WORKSPACES if is_hopper(gpu) else {}
        self.tuned: set[str] = set()  # keys autotuned so far (PyTorch's per-process plan cache)
        self.unknown: dict[str, bool] = {}  # key -> benchmark on: calls with no measurement
        self.calls = 0
        self.unmeasured_calls = 0
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
                if trial is None:  # the trial workspace has no typical size (no formula follows it): named
                    self.unknown[key] = True
                    self.unmeasured_calls += 1
                    chosen = typical_workspace(key)
                else:
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
                size = typical_workspace(key)
            if size:
                out.append((WORKSPACE, size))
        return out

    def summary(self) -> dict:
        unknown_tuned = sum(self.unknown.values())
        return {"conv_calls": self.calls, "conv_calls_unmeasured": self.unmeasured_calls,
                "conv_unmeasured": len(self.unknown),
                "autotuning_unmeasured": unknown_tuned, "autotuning_largest": self.largest_trial,
                "autotuning_largest_call": self.trial_key,
                "measured_on": MEASURED_ON["gpu"] if self.table else "",
                "unmeasured_examples": sorted(self.unknown)[:3]}
