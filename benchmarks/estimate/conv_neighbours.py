"""How well the nearest measured calls estimate a cuDNN convolution workspace never measured
(memlint/estimate/cudnn_conv.py `nearest_workspace`): each shape of the table is left out with
all its batch sizes, and its calls are estimated from the rest.

    python conv_neighbours.py   # prints, per column (the plan cudnn.benchmark chose, the heuristics' plan),
                                # the share of calls within 50% or 1 MiB and the summed absolute error
"""

from __future__ import annotations

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))
from memlint.estimate.cudnn_conv import nearest, parse_key  # noqa: E402
from memlint.estimate.cudnn_workspaces import WORKSPACES  # noqa: E402

MIB = 1 << 20


def shape(key: str) -> str:
    """The key without its batch size: a network's layer at any batch."""
    parts = key.split(" ")
    parts[2] = parts[2].split(",", 1)[1]
    return " ".join(parts)


def left_out(column: int) -> tuple[int, float, float]:
    """(calls, share within 50% or 1 MiB, summed absolute error / summed workspaces) for one column."""
    calls = []
    for key, sizes in WORKSPACES.items():
        parsed = parse_key(key)
        if parsed and sizes[column] is not None:
            calls.append((shape(key), *parsed, sizes[column]))
    within = error = total = 0
    for group, kind, features, larger, size in calls:
        rest = [(f, s / big) for g, k, f, big, s in calls if k == kind and g != group]
        estimate = nearest(features, larger, rest) or 0
        within += abs(estimate - size) <= max(0.5 * size, MIB)
        error += abs(estimate - size)
        total += size
    return len(calls), within / len(calls), error / total


def main() -> None:
    for column, name in ((1, "cudnn.benchmark's chosen plan"), (2, "the heuristics' plan (benchmark off)")):
        count, within, error = left_out(column)
        print(f"{name}: {count} calls, {within:.0%} within 50% or 1 MiB, summed absolute error {error:.0%} "
              "of the summed workspaces (0 for every call: 100%)")


if __name__ == "__main__":
    main()
