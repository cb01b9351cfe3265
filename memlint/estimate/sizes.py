"""Byte sizes and the GPUs a budget can name (no torch here)."""

from __future__ import annotations

import re

KIB, MIB, GIB = 1024, 1024**2, 1024**3
_UNITS = {"": 1, "b": 1, "k": 1000, "kb": 1000, "kib": KIB, "m": 1000**2, "mb": 1000**2, "mib": MIB,
          "g": 1000**3, "gb": 1000**3, "gib": GIB, "t": 1000**4, "tb": 1000**4, "tib": 1024**4}

# Usable memory: what `torch.cuda.mem_get_info()` reports free on an idle
# card once a CUDA context exists (the context itself, ~0.5 GiB, is never
# available to tensors). Marketing sizes are decimal GB on some cards and
# binary GiB on others; these are the capacities the driver reports.
GPUS: dict[str, tuple[str, int]] = {
    "t4": ("NVIDIA T4 16 GB", int(14.57 * GIB)),
    "v100-16gb": ("NVIDIA V100 16 GB", int(15.27 * GIB)),
    "v100": ("NVIDIA V100 32 GB", int(31.24 * GIB)),
    "a10g": ("NVIDIA A10G 24 GB", int(21.57 * GIB)),
    "l4": ("NVIDIA L4 24 GB", int(21.57 * GIB)),
    "rtx3090": ("NVIDIA GeForce RTX 3090 24 GB", int(23.20 * GIB)),
    "rtx4090": ("NVIDIA GeForce RTX 4090 24 GB", int(23.06 * GIB)),
    "a100-40gb": ("NVIDIA A100 40 GB", int(39.06 * GIB)),
    "a100": ("NVIDIA A100 80 GB", int(78.63 * GIB)),
    "l40s": ("NVIDIA L40S 48 GB", int(44.03 * GIB)),
    "a6000": ("NVIDIA RTX A6000 48 GB", int(47.03 * GIB)),
    "h100": ("NVIDIA H100 80 GB", int(78.70 * GIB)),
    "h200": ("NVIDIA H200 141 GB", int(139.3 * GIB)),
    "b200": ("NVIDIA B200 180 GB", int(177.0 * GIB)),
}
# What `torch.cuda.get_device_name()` answers in a fake run without --gpu.
DEFAULT_GPU = ("NVIDIA H100 80GB HBM3", 80 * GIB)
ALIASES = {"a100-80gb": "a100", "h100-80gb": "h100", "v100-32gb": "v100", "3090": "rtx3090", "4090": "rtx4090"}


def parse_size(text: str) -> int:
    """'80GiB', '24 GB', '512MiB', '1e9' -> bytes; ValueError with a readable message."""
    match = re.fullmatch(r"\s*([0-9]*\.?[0-9]+(?:e[0-9]+)?)\s*([a-zA-Z]*)\s*", text)
    if not match or match.group(2).lower() not in _UNITS:
        raise ValueError(f"not a size: {text!r} (examples: 80GiB, 24GB, 512MiB)")
    return int(float(match.group(1)) * _UNITS[match.group(2).lower()])


def gpu(name: str) -> tuple[str, int]:
    """A GPU of the table by a loose name ('H100', 'a100-40gb'): (label, usable bytes)."""
    key = re.sub(r"[\s_]+", "-", name.strip().lower()).removeprefix("nvidia-")
    key = ALIASES.get(key, key)
    if key not in GPUS:
        raise ValueError(f"unknown GPU {name!r}; known: {', '.join(sorted(GPUS))} (or give --budget SIZE)")
    return GPUS[key]


def unit_for(largest: float) -> tuple[str, int]:
    """The one unit of a report: GiB when its largest prediction is 1 GiB or more, else MiB
    (binary units, as nvidia-smi)."""
    return ("GiB", GIB) if largest >= GIB else ("MiB", MIB)


def in_unit(n: float, unit: tuple[str, int]) -> str:
    """`n` bytes in `unit`: 2 decimals for GiB, 1 for MiB, 3 under 0.1 of the unit."""
    name, size = unit
    value = n / size
    if n == 0:
        return f"0 {name}"
    if abs(value) < 0.001:
        return f"{'-' if value < 0 else ''}<0.001 {name}"
    decimals = 3 if abs(value) < 0.1 else (2 if name == "GiB" else 1)
    return f"{value:,.{decimals}f} {name}"
