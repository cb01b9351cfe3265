"""Slopes and verdicts: is memory growing per iteration, or flat?

The verdict comes from the Theil–Sen slope (the median of the slopes between
every pair of samples) after a short warm-up, plus a persistence check:

* warm-up: the first iterations allocate once-only state (gradients,
  optimizer moments, cuBLAS workspaces, autocast caches); up to
  `WARMUP` iterations (never more than a third of the run) are left out.
* threshold: growth of at least `THRESHOLD_MIB` (0.25 MiB) per iteration is a
  leak. Measured cases this separates: a retained scalar loss grows by
  0.0005 MiB/iter and the bf16 activations of a cached autocast decode loop by
  0.03 MiB/iter (both flat); the leaks grow by 18 to 192 MiB/iter at full size
  and by at least 1 MiB/iter in the scaled-down test versions.
* persistence: the Theil–Sen median is robust to outliers but not to a single
  step (a buffer allocated once in the middle of the run): half of the pairs
  straddle the step, and their slopes can carry the median over the
  threshold. A leak grows throughout, so memory must also grow, by at least
  half the threshold per iteration, across each third of the window.
"""

from __future__ import annotations

from dataclasses import dataclass

MIB = 1024 * 1024
THRESHOLD_MIB = 0.25
WARMUP = 3


def theil_sen(xs: list[float], ys: list[float]) -> float:
    """Median of pairwise slopes (0.0 for fewer than two points)."""
    slopes = []
    n = len(xs)
    for i in range(n):
        for j in range(i + 1, n):
            if xs[j] != xs[i]:
                slopes.append((ys[j] - ys[i]) / (xs[j] - xs[i]))
    if not slopes:
        return 0.0
    slopes.sort()
    mid = len(slopes) // 2
    return slopes[mid] if len(slopes) % 2 else (slopes[mid - 1] + slopes[mid]) / 2


def warmup_for(iterations: int) -> int:
    return min(WARMUP, iterations // 3)


@dataclass
class Growth:
    slope_mib: float  # per iteration, after the warm-up
    growth_mib: float  # last sample minus the first sample after the warm-up
    iterations: int
    warmup: int
    persistent: bool

    @property
    def leaks(self) -> bool:
        return self.slope_mib >= THRESHOLD_MIB and self.persistent


def growth(samples: list[int]) -> Growth:
    """`samples[i]` is the memory (bytes) after i iterations; samples[0] is the baseline."""
    iterations = max(0, len(samples) - 1)
    warm = warmup_for(iterations)
    window = samples[warm:]
    xs = list(range(warm, warm + len(window)))
    ys = [s / MIB for s in window]
    if len(window) < 2:
        return Growth(0.0, 0.0, iterations, warm, False)
    slope = theil_sen(xs, ys)
    total = ys[-1] - ys[0]
    persistent = True
    if len(window) >= 4:
        cuts = [0, len(window) // 3, 2 * len(window) // 3, len(window) - 1]
        for a, b in zip(cuts, cuts[1:]):
            if b > a and (ys[b] - ys[a]) / (b - a) < THRESHOLD_MIB / 2:
                persistent = False
    else:
        persistent = total / (len(window) - 1) >= THRESHOLD_MIB / 2
    return Growth(slope, total, iterations, warm, persistent)
