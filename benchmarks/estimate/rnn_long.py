"""cuDNN RNN workspaces over long sequences (400 to 1,600 steps: a Tacotron postnet's GRU runs 800),
which rnn_sweep.py's sample (at most 512 steps) lacks: kernel_probe.rnns on a fixed grid.

    python benchmarks/estimate/rnn_long.py OUT.json
"""
import itertools
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kernel_probe  # noqa: E402
import torch  # noqa: E402

kernel_probe.RNNS = [(kind, seq, batch, hidden * 2 if bi else hidden, hidden, 1, bi, "float32")
                     for kind, seq, batch, hidden, bi in itertools.product(
                         ("GRU", "LSTM"), (400, 800, 1600), (12, 32), (128, 256, 512), (True, False))]
result = {"torch": torch.__version__, "cudnn": torch.backends.cudnn.version(), "gpu": torch.cuda.get_device_name(),
          "rnn": kernel_probe.rnns()}
with open(sys.argv[1], "w") as handle:
    json.dump(result, handle, indent=1)
