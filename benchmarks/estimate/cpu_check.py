"""The fake run against a real CPU run of the same two steps, tracked by the same
tracker, for the benchmark programs at a CPU-sized scale (fp32 and checkpointing: CPU
autocast casts other ops than the CUDA autocast the fake run emulates).

    python benchmarks/estimate/cpu_check.py

CUDA's 512-byte rounding is turned off and Adam runs single-tensor in both runs (on
CUDA it would run foreach: other temporaries), so the two peaks should be equal; Adam's
step counters are host tensors on a GPU and are taken out of the real run's peak. The LSTM
is not here: the fake run emulates cuDNN's fused RNN (its reserve space and workspaces),
which a CPU run does not have; kernel_probe.py checks that model on the GPU."""

from __future__ import annotations

import os
import sys
import time

import torch
import torch.distributed._tools.mem_tracker as mem_tracker

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, "programs"), os.path.dirname(os.path.dirname(HERE))]

from memlint.estimate.fakegpu import FakeGPU  # noqa: E402
from memlint.estimate.tracker import GPU, StepTracker  # noqa: E402

SMALL = {
    "gpt": {"LAYERS": 2, "DIM": 256, "HEADS": 4, "SEQ": 128, "BATCH": 4, "VOCAB": 1000},
    "vit": {"LAYERS": 2, "DIM": 192, "HEADS": 3, "BATCH": 4},
    "resnet": {"BATCH": 2},
    "unet": {"BATCH": 2, "SIZE": 32, "BASE": 64, "TEMB": 128},
}


def run(name: str, mode: str, fake: bool) -> tuple[int, float]:
    """(peak bytes, seconds) of two steps: on the fake GPU, or really on the CPU."""
    import common

    module = __import__(name)
    for key, value in SMALL[name].items():
        setattr(module, key, value)
    module.DEVICE = "cuda" if fake else "cpu"
    tracker = StepTracker()
    start = time.perf_counter()
    with FakeGPU(tracker) if fake else tracker:
        model, opt, batch, loss_fn = module.build(mode)
        step = common.step_function(model, opt, batch, loss_fn, mode)
        step()
        step()
    seconds = time.perf_counter() - start
    if fake:
        return tracker._peak_mem[GPU], seconds
    host = sum(s["step"].nbytes for s in opt.state.values() if "step" in s and s["step"].dim() == 0)
    return tracker._peak_mem[torch.device("cpu")] - host, seconds


def main() -> None:
    mem_tracker._PYTORCH_MIN_ALLOCATE = 1
    for name in ("adam", "adamw", "sgd"):
        sys.modules[f"torch.optim.{name}"]._default_to_fused_or_foreach = lambda *a, **k: (False, False)
    for name in SMALL:
        for mode in ("fp32", "ckpt"):
            real, real_s = run(name, mode, fake=False)
            fake, fake_s = run(name, mode, fake=True)
            print(f"{name:<7}{mode:<5} real CPU {real:>12,} B ({real_s:5.1f} s)  fake GPU {fake:>12,} B "
                  f"({fake_s:5.1f} s)  {fake / real - 1:+.2%}", flush=True)


if __name__ == "__main__":
    main()
