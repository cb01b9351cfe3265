"""Kernel-side memory: what cuBLAS and cuDNN take from the caching allocator beyond the
tensors a fake run sees, named and bounded from the shapes of the run.

The model, measured on H100/H200 with cuDNN 9 (benchmarks/estimate/kernel_probe.py):

* cuBLAS workspace: one per stream, taken at the first matmul and kept: 32 MiB on Hopper
  (counted in the peak; `summary.workspace_for`).
* cuDNN convolution workspace, `cudnn.benchmark` off: the algorithm cuDNN's heuristics
  pick takes a workspace for the duration of the call and gives it back. Measured from 0
  to 3.6x the larger of the convolution's input and output (forward and backward, fp32 and
  bf16); bounded here at 4x the largest convolution's larger tensor. Transient: it adds
  to the peak only if the largest convolution runs at the peak, so it is reported as a
  bound above the predicted peak, not in it.
* `cudnn.benchmark = True`: the first call of each shape times the candidate algorithms,
  and PyTorch allocates the largest candidate's workspace for the trials (halving it on
  out-of-memory). That workspace does not follow the tensors' sizes: 2.6 GiB was measured
  for a transposed convolution with a 2 MiB input (DCGAN's generator at batch 64, fp32),
  which set that script's peak higher than at batch 256. No bound below the GPU's free
  memory holds; the report says so.
* cuDNN RNN reserve space (LSTM/GRU/RNN in training): what the fused kernel keeps for
  backward, measured 5.1 to 5.7x seq x batch x hidden x layers x directions x element
  size; the fake run keeps what the CPU's RNN saves instead (cuDNN is off in a fake run),
  so the reserve, bounded at 6x, is reported next to the prediction.
"""

from __future__ import annotations

import torch
import torch.nn as nn

CONV_WORKSPACE_FACTOR = 4
RNN_RESERVE_FACTOR = 6


class KernelSide:
    """Watches the modules of a fake run for convolutions and RNNs on the emulated GPU."""

    def __init__(self, tracker) -> None:
        self.tracker = tracker
        self.largest_conv = 0  # bytes of the largest input or output of a convolution
        self.conv_name = ""
        self.benchmark = False  # cudnn.benchmark was on at a convolution
        self.rnn_reserve = 0
        self.rnn_name = ""
        self._handle = None

    def install(self) -> None:
        self._handle = nn.modules.module.register_module_forward_hook(self._after_forward)

    def remove(self) -> None:
        if self._handle is not None:
            self._handle.remove()
            self._handle = None

    def _after_forward(self, module: nn.Module, inputs, output) -> None:
        if isinstance(module, nn.modules.conv._ConvNd):
            self._conv(module, inputs, output)
        elif isinstance(module, nn.RNNBase) and module.training and torch.is_grad_enabled():
            self._rnn(module, inputs)

    def _conv(self, module: nn.Module, inputs, output) -> None:
        x = inputs[0] if inputs else None
        if not isinstance(x, torch.Tensor) or not isinstance(output, torch.Tensor) or not self.tracker.on_gpu(output):
            return
        size = max(_nbytes(x), _nbytes(output))
        if size > self.largest_conv:
            self.largest_conv, self.conv_name = size, type(module).__name__
        self.benchmark = self.benchmark or bool(torch.backends.cudnn.benchmark)

    def _rnn(self, module: nn.RNNBase, inputs) -> None:
        x = inputs[0] if inputs else None
        if isinstance(x, nn.utils.rnn.PackedSequence):
            x = x.data
        if not isinstance(x, torch.Tensor) or not self.tracker.on_gpu(x) or x.dim() < 2:
            return
        steps_times_batch = x.shape[0] * (x.shape[1] if x.dim() == 3 else 1)
        directions = 2 if module.bidirectional else 1
        reserve = (RNN_RESERVE_FACTOR * steps_times_batch * module.hidden_size * module.num_layers * directions
                   * x.element_size())
        self.rnn_reserve = max(self.rnn_reserve, reserve)
        self.rnn_name = type(module).__name__

    def summary(self) -> dict:
        """JSON-ready: the named items (bytes) and the bound they put above the predicted peak."""
        out: dict = {}
        if self.largest_conv:
            out["cudnn_conv_workspace"] = CONV_WORKSPACE_FACTOR * self.largest_conv
            out["cudnn_benchmark"] = self.benchmark
        if self.rnn_reserve:
            out["cudnn_rnn_reserve"] = self.rnn_reserve
            out["rnn"] = self.rnn_name
        return out


def _nbytes(t: torch.Tensor) -> int:
    return t.numel() * t.element_size()
