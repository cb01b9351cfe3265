"""Kernel-side memory: what cuBLAS and cuDNN take from the caching allocator beyond the
tensors a fake run sees, named and bounded from the shapes of the run.

The model, measured on H100/H200 with cuDNN 9 (benchmarks/estimate/kernel_probe.py):

* cuBLAS workspace: one per stream, taken at the first matmul and kept: 32 MiB on Hopper
  (counted in the peak; `summary.workspace_for`).
* cuDNN convolution workspaces (`cudnn_conv`): each call's workspaces as measured on Hopper
  (cuDNN 9.19, `cudnn_workspaces`), in the prediction: the chosen plan's for the call, and
  with `cudnn.benchmark = True` the trial workspace of a shape's first call (the largest
  plan's, up to GiBs for tensors of MiBs: 2.6 GiB for DCGAN's generator at batch 64), capped
  at the free memory as PyTorch does and kept out of what must fit. A call never measured
  takes the workspace of its nearest measured calls, scaled to its tensors
  (`cudnn_conv.nearest_workspace`), in the prediction; its autotuning trial is named as
  missing from the peak, bounded by the free memory only.
* cuDNN RNNs (LSTM/GRU/RNN training on the GPU) run as one fused kernel, which the fake
  run emulates (cuDNN is off in a fake run, and the CPU's RNN keeps 8-10 values per hidden
  unit and step for backward where cuDNN keeps about 5): the forward keeps a reserve space
  for backward, measured within 2% of seq x batch x hidden x directions x element size x
  (G x layers + layers - 1), G = 5 for an LSTM, 6 for a GRU, 1 for a plain RNN (the gates'
  activations of every step, and each inner layer's output); forward and backward each take
  a transient workspace, fitted on 74 float32 shapes (17 chosen, 57 random; H100 and H200,
  cuDNN 9.19; benchmarks/estimate/rnn_fit.py) as C x layers x directions + A x seq x batch x
  H x directions x gates x element size + B x batch x H x layers x directions x gates x
  element size + W x the weights' bytes, H = max(hidden, 192) (below that the workspace
  stops shrinking with the hidden size); C, about 9 MiB, is what each layer and direction
  takes whatever the batch (a bidirectional 4-layer LSTM at batch 1 takes 70 MiB): median
  error 9% forward, 13% backward; fitted on the random shapes alone, 9% and 17% on the
  chosen ones, worst 51%, as cuDNN picks its algorithm by shape. Both are in the prediction.
  (cuDNN takes one workspace size for the three calls, the backward-weights one on top of the
  gradients, rnn_fit.py shows; the backward fit, allocated before the gradients, stands for
  that sum, which keeps the peak but not the blocks the allocator then reuses.)
"""

from __future__ import annotations

import itertools

import torch
import torch.nn as nn

from memlint.estimate.cudnn_conv import EMPTY_CACHE, ConvWorkspaces, calls_of

MIB = 1 << 20
# Reserve space per layer and per inner layer, in hidden-sized values of a step (see the docstring).
RNN_RESERVE_GATES = {"LSTM": 5, "GRU": 6, "RNN_TANH": 1, "RNN_RELU": 1}
RNN_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}
# Transient workspace, forward and backward: (per layer and direction, per seq x batch x H x gates,
# per batch x H x layers x gates, per weight byte, per seq x batch x H x directions), H = max(hidden,
# RNN_HIDDEN_FLOOR), all in bytes of the tile's values (see the docstring; benchmarks/estimate/rnn_fit.py).
RNN_WORKSPACE = {"forward": (8.887 * MIB, 0.954, 1.034, 0.911, 3.231),
                 "backward": (8.962 * MIB, 1.166, 1.41, 1.244, 3.335)}
RNN_HIDDEN_FLOOR = 192


def rnn_sizes(mode: str, seq: int, batch: int, hidden: int, layers: int, directions: int,
              element_size: int, weights: int) -> dict[str, int]:
    """Bytes of a cuDNN RNN's training forward: reserve space, forward and backward workspaces
    (`weights`: the bytes of its weight matrices)."""
    step = batch * hidden * directions * element_size
    gates = RNN_GATES[mode]
    out = {"reserve": seq * step * (RNN_RESERVE_GATES[mode] * layers + layers - 1)}
    cell = batch * max(hidden, RNN_HIDDEN_FLOOR) * directions * element_size
    tile = cell * gates
    for phase, (per_stack, per_step, per_layer, per_weight, per_cell) in RNN_WORKSPACE.items():
        # Over long sequences the workspace grows with the steps alike whatever the gates, about twice
        # as fast per direction for a bidirectional RNN (measured from 400 to 1,600 steps).
        out[phase] = int(per_stack * layers * directions + per_step * seq * tile + per_layer * tile * layers
                         + per_weight * weights + per_cell * seq * cell * directions)
    return out


class _FusedRNN(torch.autograd.Function):
    """One cuDNN RNN call: the module's own forward computes the outputs' shapes with no graph,
    and what cuDNN allocates is allocated here, on the inputs' (emulated) device."""

    @staticmethod
    def forward(ctx, module, forward, states, sizes, *tensors):
        # `states`: how the initial hidden state came: None, or ("tensor" | "tuple", how many tensors)
        held = 1 + (states[1] if states else 0)  # the input and the initial states
        x, hx = tensors[0], _hx(states, tensors[1:held])
        with torch.no_grad():
            output, state = forward(module, x, hx)
            workspace = x.new_empty(sizes["forward"], dtype=torch.uint8)
            del workspace
            ctx.reserve = x.new_empty(sizes["reserve"], dtype=torch.uint8)  # freed with the graph
        # cuDNN's backward reads the input, the initial states and the output (_cudnn_rnn's
        # saved values), so they live until it runs, whether or not the program still holds them.
        ctx.save_for_backward(*tensors[:held], output)
        ctx.backward_workspace = sizes["backward"]
        ctx.needs = [t.requires_grad for t in tensors]
        ctx.held = held
        ctx.shapes = [(t.shape, t.dtype) for t in tensors]
        return (output, *state) if isinstance(state, tuple) else (output, state)

    @staticmethod
    def backward(ctx, *grads):
        like = next(g for g in grads if g is not None)
        workspace = like.new_empty(ctx.backward_workspace, dtype=torch.uint8)
        del workspace
        out = [like.new_zeros(shape, dtype=dtype) if need else None
               for need, (shape, dtype) in zip(ctx.needs[:ctx.held], ctx.shapes[:ctx.held])]
        # The weights' gradients come in one buffer, as cuDNN's backward writes them (views of it).
        weights = [(shape, dtype) for need, (shape, dtype) in zip(ctx.needs[ctx.held:], ctx.shapes[ctx.held:]) if need]
        if weights and len({dtype for _, dtype in weights}) == 1:
            flat = like.new_zeros(sum(shape.numel() for shape, _ in weights), dtype=weights[0][1]).split(
                [shape.numel() for shape, _ in weights])
            views = iter(view.view(shape) for view, (shape, _) in zip(flat, weights))
            out += [next(views) if need else None for need in ctx.needs[ctx.held:]]
        else:
            out += [like.new_zeros(shape, dtype=dtype) if need else None
                    for need, (shape, dtype) in zip(ctx.needs[ctx.held:], ctx.shapes[ctx.held:])]
        del ctx.reserve
        return (None, None, None, None, *out)


def _hx(states: tuple | None, tensors: tuple):
    if states is None:
        return None
    return tensors if states[0] == "tuple" else tensors[0]


class KernelSide:
    """Watches the modules of a fake run for convolutions and RNNs on the emulated GPU."""

    def __init__(self, tracker, gpu: str = "") -> None:
        self.tracker = tracker
        self.largest_conv = 0  # bytes of the largest input or output of a convolution
        self.conv_name = ""
        self.benchmark = False  # cudnn.benchmark was on at a convolution
        self.convs = ConvWorkspaces(gpu)
        self._keys = itertools.count(-2, -1)  # event keys of the workspaces (-1: the cuBLAS workspace)
        self.rnn_reserve = 0
        self.rnn_workspace = 0
        self.rnn_name = ""
        self._handle = None
        self._forwards: dict[type, object] = {}
        self._flatten = None

    def install(self) -> None:
        self._handle = nn.modules.module.register_module_forward_hook(self._after_forward)
        for kind in (nn.LSTM, nn.GRU, nn.RNN):
            self._forwards[kind] = kind.__dict__["forward"]
            kind.forward = self._fused(kind.__dict__["forward"])
        self._flatten = nn.RNNBase.__dict__["flatten_parameters"]
        nn.RNNBase.flatten_parameters = self._flattened(self._flatten)

    def remove(self) -> None:
        if self._handle is not None:
            self._handle.remove()
            self._handle = None
        for kind, forward in self._forwards.items():
            kind.forward = forward
        self._forwards.clear()
        if self._flatten is not None:
            nn.RNNBase.flatten_parameters = self._flatten
            self._flatten = None

    def _flattened(self, flatten):
        def flatten_parameters(module):
            weights = module._flat_weights
            if (len(weights) != len(module._flat_weights_names) or not all(isinstance(w, torch.Tensor) for w in weights)
                    or not self.tracker.on_gpu(weights[0]) or len({w.dtype for w in weights}) > 1
                    or len({w.untyped_storage() for w in weights}) == 1):
                return flatten(module)
            # On the GPU cuDNN moves an RNN's weights into one buffer (torch._cudnn_rnn_flatten_weight),
            # freeing the tensors `.to()` made; its backward returns their gradients in one buffer too. A fake
            # run has no cuDNN, so the weights stayed apart: the same bytes, in other blocks of the allocator.
            with torch.no_grad():
                flat = weights[0].new_empty(sum(w.numel() for w in weights))
                for w, view in zip(weights, flat.split([w.numel() for w in weights])):
                    w.data = view.view_as(w).copy_(w)

        return flatten_parameters

    def _fused(self, forward):
        def fused_forward(module, input, hx=None):
            if not self._emulated(module, input):
                return forward(module, input, hx)
            return self._rnn(module, forward, input, hx)

        return fused_forward

    def _emulated(self, module: nn.RNNBase, x) -> bool:
        """A training call on the GPU that cuDNN would run fused (not a PackedSequence, no projection)."""
        return (module.training and torch.is_grad_enabled() and isinstance(x, torch.Tensor) and x.dim() in (2, 3)
                and self.tracker.on_gpu(x) and not getattr(module, "proj_size", 0))

    def _after_forward(self, module: nn.Module, inputs, output) -> None:
        if isinstance(module, nn.modules.conv._ConvNd):
            self._conv(module, inputs, output)

    def _conv(self, module: nn.Module, inputs, output) -> None:
        x = inputs[0] if inputs else None
        if not isinstance(x, torch.Tensor) or not isinstance(output, torch.Tensor) or not self.tracker.on_gpu(output):
            return
        size = max(_nbytes(x), _nbytes(output))
        if size > self.largest_conv:
            self.largest_conv, self.conv_name = size, type(module).__name__
        self.benchmark = self.benchmark or bool(torch.backends.cudnn.benchmark)

    def after_op(self, func, args: tuple, phase: int) -> None:
        """A convolution's cuDNN workspaces, allocated and freed after its outputs (the tracker's events)."""
        keys = calls_of(func, args)
        if not keys:
            return
        events = self.tracker.record.events
        for category, size in self.convs.transients(keys, bool(torch.backends.cudnn.benchmark)):
            if category:
                key = next(self._keys)
                events += [(1, key, size, category, phase), (-1, key, size, category, phase)]
            else:
                events.append((EMPTY_CACHE, 0, 0, "", phase))

    def _rnn(self, module: nn.RNNBase, forward, x: torch.Tensor, hx):
        batched = x.dim() == 3
        seq, batch = (x.shape[0], x.shape[1] if batched else 1)
        if batched and module.batch_first:
            seq, batch = batch, seq
        element_size = x.element_size()
        if torch.is_autocast_enabled("cuda"):  # the RNN is on CUDA autocast's lower-precision list
            element_size = torch.finfo(torch.get_autocast_dtype("cuda")).bits // 8
        weights = sum(w.numel() for w in module._flat_weights if w is not None and w.dim() == 2) * element_size
        sizes = rnn_sizes(module.mode, seq, batch, module.hidden_size, module.num_layers,
                          2 if module.bidirectional else 1, element_size, weights)
        self.rnn_reserve = max(self.rnn_reserve, sizes["reserve"])
        self.rnn_workspace = max(self.rnn_workspace, sizes["forward"], sizes["backward"])
        self.rnn_name = type(module).__name__
        # An LSTM's (h, c) may come as a list, as `[s.detach() for s in states]` makes it: torch takes it.
        several = isinstance(hx, (tuple, list))
        states = () if hx is None else tuple(hx) if several else (hx,)
        layout = None if hx is None else ("tuple" if several else "tensor", len(states))
        out = _FusedRNN.apply(module, forward, layout, sizes, x, *states, *module._flat_weights)
        return out[0], (tuple(out[1:]) if len(out) > 2 else out[1])

    def summary(self) -> dict:
        """JSON-ready, in bytes: the convolution workspace and autotuning (beside the predicted peak) and
        the largest RNN's reserve space and workspace (in it)."""
        out: dict = {}
        if self.largest_conv:
            out.update(self.convs.summary())
            out["cudnn_benchmark"] = self.benchmark
        if self.rnn_reserve:
            out["cudnn_rnn_reserve"] = self.rnn_reserve
            out["cudnn_rnn_workspace"] = self.rnn_workspace
            out["rnn"] = self.rnn_name
        return out


def _nbytes(t: torch.Tensor) -> int:
    return t.numel() * t.element_size()
