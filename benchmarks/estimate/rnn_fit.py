"""The cuDNN RNN workspace model of `memlint estimate` (memlint.estimate.kernels.RNN_WORKSPACE),
fitted on the float32 shapes of three probes: kernel_probe.py rnn (18 chosen shapes),
rnn_sweep.py (80 random ones, at most 512 steps) and rnn_long.py (72 on a grid of 400 to 1,600
steps), measured on Hopper GPUs (H100 and H200, cuDNN 9.19).

    python rnn_fit.py [KERNELS.json SWEEP.json LONG.json]

Prints the coefficients (non-negative least squares on the relative error) and the errors:
in sample, of a fit on the random shapes alone checked on the chosen ones, and of a fit
without the 800-step shapes checked on them. bfloat16
shapes are left out: the probe converts an fp32 module, whose weights then are not one
contiguous buffer, and cuDNN copies them at every call.
"""

from __future__ import annotations

import json
import os
import sys

import numpy as np
from scipy.optimize import nnls

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(os.path.dirname(HERE), "results")
GATES = {"LSTM": 4, "GRU": 3, "RNN": 1}
MIB = 2**20
# Below this hidden size the workspace stops shrinking with it (cuDNN's kernels work on tiles).
HIDDEN_FLOOR = 192


def features(r: dict) -> list[float]:
    """[layers x d MiB, seq x batch x H x d x g x 4, batch x H x layers x d x g x 4, weight bytes,
    seq x batch x H x d x d x 4], H = max(hidden, floor): each layer and direction takes a workspace of its own
    whatever the batch (a bidirectional 4-layer LSTM takes 70 MiB at batch 1), where one constant for the call was
    19% off (median) forward, 23% backward. Over long sequences the workspace grows with the steps alike for
    LSTMs and GRUs, about twice as fast per direction for a bidirectional one (rnn_long.py: with the first four
    terms alone the 72 long shapes were 38% under, median)."""
    directions = 2 if r["bidirectional"] else 1
    gates, hidden = GATES[r["kind"]], max(r["hidden"], HIDDEN_FLOOR)
    step = r["batch"] * hidden * directions * gates * 4
    weights = sum(gates * r["hidden"] * ((r["input"] if k == 0 else r["hidden"] * directions) + r["hidden"]) * 4 * directions
                  for k in range(r["layers"]))
    cells = r["seq"] * r["batch"] * hidden * directions * directions * 4
    return [MIB * r["layers"] * directions, r["seq"] * step, step * r["layers"], weights, cells]


def measured(r: dict) -> tuple[int, int]:
    """(forward workspace, backward workspace): the transient peak over what was allocated around each."""
    return (r["peak_forward"] - r["after_forward"],
            r["peak_backward"] - max(r["before_backward"], r["after_backward"]))


def fit(rows: list[dict], phase: int) -> np.ndarray:
    a = np.array([features(r) for r in rows], float)
    y = np.array([measured(r)[phase] for r in rows], float)
    coefficients, _ = nnls(a / y[:, None], np.ones(len(y)))
    return coefficients


def errors(rows: list[dict], phase: int, coefficients: np.ndarray) -> np.ndarray:
    a = np.array([features(r) for r in rows], float)
    y = np.array([measured(r)[phase] for r in rows], float)
    return (a @ coefficients - y) / y


def one_workspace(r: dict) -> float:
    """The backward's measure less what it holds beside the workspace, over the forward's workspace: cuDNN
    sizes one workspace for the forward and both backward calls, and the backward-weights call takes it on
    top of the input's and the weights' gradients, of which the measure counts what the freed reserve does not."""
    kept = r["after_forward"] - r["before"] - r["outputs"]
    grads = r["seq"] * r["batch"] * r["input"] * 4 + features(r)[3]
    forward, backward = measured(r)
    return (backward - min(grads, kept)) / forward


def main() -> None:
    kernels, sweep, long = sys.argv[1:4] if len(sys.argv) == 4 else (
        os.path.join(RESULTS, "estimate_kernels_gpu_h100.json"), os.path.join(RESULTS, "estimate_rnn_sweep_gpu.json"),
        os.path.join(RESULTS, "estimate_rnn_long_h200.json"))
    chosen, random, steps = ([r for r in json.load(open(path, encoding="utf-8"))["rnn"] if r["dtype"] == "float32"]
                             for path in (kernels, sweep, long))
    rows = chosen + random + steps
    for phase, name in ((0, "forward"), (1, "backward")):
        every = fit(rows, phase)
        inside = np.abs(errors(rows, phase, every))
        held = np.abs(errors(chosen, phase, fit(random + steps, phase)))
        at_800 = [r for r in steps if r["seq"] == 800]
        unseen = np.abs(errors(at_800, phase, fit([r for r in rows if r not in at_800], phase)))
        print(f"{name}: {every[0]:.3f} MiB x layers x directions + {every[1]:.3f} x seq-term + {every[2]:.3f} x "
              f"batch-term + {every[3]:.3f} x weights + {every[4]:.3f} x cell-term; {len(inside)} shapes: median "
              f"{np.median(inside):.1%}, 90% under {np.quantile(inside, 0.9):.1%}; fitted without the "
              f"{len(held)} chosen ones: median {np.median(held):.1%}, worst {held.max():.1%} on them; without the "
              f"{len(unseen)} of 800 steps: median {np.median(unseen):.1%}, worst {unseen.max():.1%} on them")


    ratios = np.array([one_workspace(r) for r in chosen + random])
    print(f"backward less min(input and weight gradients, reserve), over forward: median {np.median(ratios):.3f}, "
          f"80% within {np.quantile(ratios, 0.1):.2f} to {np.quantile(ratios, 0.9):.2f} (one workspace size; the "
          "backward fit stands for it on top of the gradients)")


if __name__ == "__main__":
    main()
