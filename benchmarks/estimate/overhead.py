"""memlint's own CPU per op in a fake run: three training steps of a network of many small
modules (12 cells of 4 branches of Linear, ReLU and LayerNorm: about 1,000 ops and 250 module
calls a step, as in an architecture search's cells), on the emulated GPU, with the process's
CPU time and the predicted peak (which a change of this cost must leave as it is).

    PYTHONPATH=. python benchmarks/estimate/overhead.py [ROUNDS]
"""

from __future__ import annotations

import sys
import time

import torch

from memlint.estimate.fakegpu import FakeGPU
from memlint.estimate.tracker import GPU, StepTracker


class Cell(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.branches = torch.nn.ModuleList(
            torch.nn.Sequential(torch.nn.Linear(64, 64), torch.nn.ReLU(), torch.nn.LayerNorm(64)) for _ in range(4))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return sum(branch(x) for branch in self.branches)


def one_round() -> tuple[float, int]:
    tracker = StepTracker()
    with FakeGPU(tracker):
        tracker.start_training()
        started = time.process_time()
        model = torch.nn.Sequential(*[Cell() for _ in range(12)]).cuda()
        optimizer = torch.optim.Adam(model.parameters())
        for _ in range(3):
            model(torch.randn(32, 64, device="cuda")).sum().backward()
            optimizer.step()
            optimizer.zero_grad()
        return time.process_time() - started, tracker._peak_mem[GPU]


def main() -> None:
    for _ in range(int(sys.argv[1]) if len(sys.argv) > 1 else 3):
        seconds, peak = one_round()
        print(f"CPU {seconds:.2f} s, predicted peak {peak} bytes")


if __name__ == "__main__":
    main()
