"""cuDNN RNN workspaces over a fixed random sample of shapes, for fitting the model of
`memlint estimate`'s fused-RNN emulation (kernel_probe.py rnn measures 18 chosen shapes).

    python rnn_sweep.py OUT.json [COUNT]

Each shape gets one training forward and backward with the allocator's counters around
each (kernel_probe.rnns, the same measurement).
"""

from __future__ import annotations

import json
import random
import sys

import kernel_probe
import torch


def shapes(count: int) -> list[tuple]:
    rng = random.Random(0)
    out = []
    while len(out) < count:
        kind = rng.choice(("LSTM", "LSTM", "GRU", "RNN"))
        seq = rng.choice((8, 16, 28, 35, 50, 64, 100, 128, 256, 512))
        batch = rng.choice((1, 4, 8, 16, 20, 32, 64, 128, 256, 512, 1024, 2048))
        hidden = rng.choice((32, 64, 100, 128, 200, 256, 384, 512, 650, 1024, 1500, 2048))
        size = rng.choice((16, 28, 64, 128, 256, 512, 1024, hidden))
        layers = rng.choice((1, 1, 2, 2, 3, 4))
        bidirectional = rng.random() < 0.25
        dtype = rng.choice(("float32", "float32", "bfloat16"))
        if seq * batch * hidden * layers * (2 if bidirectional else 1) * 4 * 8 > 2**31:
            continue
        out.append((kind, seq, batch, size, hidden, layers, bidirectional, dtype))
    return out


if __name__ == "__main__":
    kernel_probe.RNNS = shapes(int(sys.argv[2]) if len(sys.argv) > 2 else 60)
    result = {"torch": torch.__version__, "cudnn": torch.backends.cudnn.version(), "gpu": torch.cuda.get_device_name(),
              "rnn": kernel_probe.rnns()}
    with open(sys.argv[1], "w", encoding="utf-8") as handle:
        json.dump(result, handle, indent=1)
