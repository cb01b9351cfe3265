"""memlint verify's statistics (Theil-Sen slope, one-sided Mann-Whitney U, percentile bootstrap of
a ratio of medians), written without numpy so that `verify` needs no more than torch, checked
against SciPy's implementations on fixed inputs."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as reference

from memlint.verify import stats

# Fixed inputs: a leak with noise, a flat run with a one-off step, ties, outliers.
SERIES = [
    [100.0, 101.0, 102.1, 103.0, 103.9, 105.2, 106.0, 107.1],
    [50.0, 50.0, 50.0, 80.0, 80.0, 80.0, 80.0, 80.0, 80.0],
    [10.0, 12.0, 11.0, 500.0, 13.0, 14.0, 15.0, 16.0, -300.0, 18.0],
    [3.0, 3.0, 3.0, 3.0],
]


@pytest.mark.parametrize("ys", SERIES)
def test_theil_sen_is_scipys_slope(ys: list[float]) -> None:
    xs = [float(i) for i in range(len(ys))]
    assert stats.theil_sen(xs, ys) == pytest.approx(reference.theilslopes(ys, xs).slope, abs=1e-12)


def test_theil_sen_leaves_out_pairs_with_the_same_x_as_scipy_does() -> None:
    xs, ys = [0.0, 1.0, 1.0, 2.0, 3.0, 3.0], [0.0, 2.0, 5.0, 4.0, 6.0, 9.0]
    assert stats.theil_sen(xs, ys) == pytest.approx(reference.theilslopes(ys, xs).slope, abs=1e-12)


def _samples(seed: int, n: int, mean: float, tie_digits: int) -> list[float]:
    return [float(v) for v in np.round(np.random.default_rng(seed).lognormal(mean, 0.2, n), tie_digits)]


@pytest.mark.parametrize(
    ("slow", "fast"),
    [
        (_samples(1, 40, 0.5, 3), _samples(2, 35, 0.2, 3)),  # clearly slower
        (_samples(3, 20, 0.3, 1), _samples(4, 25, 0.3, 1)),  # the same loop, many ties
        (_samples(5, 8, 0.2, 2), _samples(6, 12, 0.25, 2)),  # few samples, the other way
        ([1.0, 2.0, 2.0, 3.0, 3.0, 3.0], [2.0, 2.0, 3.0, 4.0]),
    ],
)
def test_mann_whitney_is_scipys_asymptotic_test(slow: list[float], fast: list[float]) -> None:
    expected = reference.mannwhitneyu(slow, fast, alternative="greater", method="asymptotic", use_continuity=True)
    assert stats.mann_whitney_greater(slow, fast) == pytest.approx(expected.pvalue, rel=1e-9, abs=1e-15)


def test_bootstrap_interval_agrees_with_scipys() -> None:
    """Different random draws, so not equal: with 2,000 of memlint's and 20,000 of SciPy's
    resamples (both seeded) the ends agree within 1% on these inputs (measured: 0.2% and 0.3%)."""
    slow, fast = _samples(1, 40, 0.5, 3), _samples(2, 35, 0.2, 3)
    low, high = stats.ratio_interval(slow, fast)
    expected = reference.bootstrap(
        (slow, fast),
        lambda x, y, axis=-1: np.median(x, axis=axis) / np.median(y, axis=axis),
        n_resamples=20_000,
        method="percentile",
        rng=np.random.default_rng(0),
    ).confidence_interval
    assert low == pytest.approx(expected.low, rel=0.01)
    assert high == pytest.approx(expected.high, rel=0.01)
    assert stats.ratio_interval(slow, fast) == (low, high)  # seeded: the same data, the same answer
