"""What a training step keeps on the GPU where CUDA's kernels differ from the CPU's that a fake
run computes with: cross-entropy under autocast, cuDNN's RNN, the fused attention's output
layout, convolution workspaces never measured, and gradients the tracker must not hold."""

from __future__ import annotations

import sys
import weakref

import pytest

torch = pytest.importorskip("torch")

from memlint.estimate import predict  # noqa: E402
from memlint.estimate.cudnn_conv import ConvWorkspaces, nearest_workspace  # noqa: E402
from memlint.estimate.kernels import rnn_sizes  # noqa: E402
from memlint.estimate.summary import WORKSPACE  # noqa: E402
from memlint.estimate.tracker import _multi_grad_hook_keeping_no_grads  # noqa: E402

MIB = 2**20
N, V = 512, 4096  # cross-entropy: rows x classes
SEQ, BATCH, IN, HIDDEN = 50, 32, 64, 128  # the LSTM
L, B, H, E = 64, 4, 8, 32  # attention: length, batch, heads, head size

FACTORIES = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

KEPT = {}

def _sgd(*modules):
    return torch.optim.SGD([p for m in modules for p in m.parameters()], lr=0.1)

def cross_entropy_bf16():
    head = nn.Linear(64, 4096, bias=False).cuda()
    opt = _sgd(head)
    x, y = torch.randn(512, 64, device="cuda"), torch.randint(0, 4096, (512,), device="cuda")
    def step():
        with torch.autocast("cuda", dtype=torch.bfloat16):
            logits = head(x)
            before = torch.cuda.memory_allocated()
            loss = F.cross_entropy(logits, y)
            del logits
            KEPT["cross_entropy"] = torch.cuda.memory_allocated() - before
        loss.backward()
        opt.step()
        opt.zero_grad()
    return step

def lstm():
    rnn = nn.LSTM(64, 128, batch_first=True).cuda()
    opt = _sgd(rnn)
    x = torch.randn(32, 50, 64, device="cuda")
    def step():
        inp = x * 2
        before = torch.cuda.memory_allocated()
        loss = rnn(inp)[0].sum()
        del inp
        KEPT["lstm"] = torch.cuda.memory_allocated() - before
        loss.backward()
        opt.step()
        opt.zero_grad()
    return step

def lstm_carried(as_list):
    # The state carried between batches, detached: as a tuple, or as the list a comprehension makes.
    rnn = nn.LSTM(64, 128, batch_first=True).cuda()
    opt = _sgd(rnn)
    x = torch.randn(32, 50, 64, device="cuda")
    state = (torch.zeros(1, 32, 128, device="cuda"), torch.zeros(1, 32, 128, device="cuda"))
    def step():
        nonlocal state
        hx = [s.detach() for s in state] if as_list else tuple(s.detach() for s in state)
        out, state = rnn(x, hx)
        KEPT["list" if as_list else "tuple"] = [tuple(s.shape) for s in state]
        out.sum().backward()
        opt.step()
        opt.zero_grad()
    return step

def lstm_flat():
    rnn = nn.GRU(64, 128, num_layers=2).cuda()
    opt = _sgd(rnn)
    KEPT["weights"] = {w.untyped_storage() for w in rnn._flat_weights}
    x = torch.randn(50, 32, 64, device="cuda")
    def step():
        rnn(x)[0].sum().backward()
        KEPT["gradients"] = {p.grad.untyped_storage() for p in rnn.parameters()}
        opt.step()
        opt.zero_grad()
    return step

def lstm_list():
    return lstm_carried(True)

def lstm_tuple():
    return lstm_carried(False)

def attention():
    # Queries laid out (length, batch, heads, size), as nn.MultiheadAttention projects them.
    proj = nn.Linear(256, 256).cuda()
    opt = _sgd(proj)
    x = torch.randn(64, 4, 256, device="cuda")
    def step():
        q = proj(x).view(64, 4, 8, 32).permute(1, 2, 0, 3)
        KEPT["fp32"] = F.scaled_dot_product_attention(q, q, q).stride()
        with torch.autocast("cuda", dtype=torch.bfloat16):
            KEPT["bf16"] = F.scaled_dot_product_attention(q, q, q).stride()
            KEPT["bf16 masked"] = F.scaled_dot_product_attention(
                q, q, q, attn_mask=torch.ones(64, 64, dtype=torch.bool, device="cuda")).stride()
        out = F.scaled_dot_product_attention(q, q, q)
        out.permute(2, 0, 1, 3).reshape(64 * 4, 256).sum().backward()
        opt.step()
        opt.zero_grad()
    return step
'''


@pytest.fixture
def factories(tmp_path, monkeypatch):
    name = f"kept_{abs(hash(str(tmp_path))) % 10**8}"
    (tmp_path / f"{name}.py").write_text(FACTORIES)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield name
    sys.modules.pop(name, None)


def _kept(module: str, factory: str) -> dict:
    result = predict.predict_factory(f"{module}:{factory}", eval_step=False)
    assert not result["stopped"], result["stopped"]
    return sys.modules[module].KEPT


def test_cross_entropy_under_autocast_keeps_low_precision_log_probabilities_and_their_fp32_copy(factories):
    # CUDA's cross_entropy takes log_softmax in the logits' dtype (bf16, kept by its backward) and
    # nll_loss, on autocast's fp32 list, keeps an fp32 copy: 2 + 4 bytes a logit, less the freed
    # logits (2). Emulated as log_softmax to fp32 it kept 4 - 2 (a GPT's bf16 logits too many).
    kept = _kept(factories, "cross_entropy_bf16")["cross_entropy"]
    assert N * V * 4 <= kept < N * V * 4 + MIB


def test_cudnn_rnn_keeps_its_input_and_output_for_backward(factories):
    # _cudnn_rnn's backward reads the input and the output: both live until it runs, though the
    # program dropped them, beside the reserve space.
    weights = 4 * HIDDEN * (IN + HIDDEN) * 4
    reserve = rnn_sizes("LSTM", SEQ, BATCH, HIDDEN, 1, 1, 4, weights)["reserve"]
    output = SEQ * BATCH * HIDDEN * 4
    kept = _kept(factories, "lstm")["lstm"]
    assert reserve + output <= kept < reserve + output + MIB


def test_cudnn_rnn_takes_its_initial_state_as_a_list_like_torch(factories):
    # torch's LSTM takes (h, c) as a list too; the fused emulation used to stop on it.
    as_list = predict.predict_factory(f"{factories}:lstm_list", eval_step=False)
    as_tuple = predict.predict_factory(f"{factories}:lstm_tuple", eval_step=False)
    assert not as_list["stopped"] and as_list["steps_run"] == 2
    assert sys.modules[factories].KEPT == {"list": [(1, 32, 128)] * 2, "tuple": [(1, 32, 128)] * 2}
    assert as_list["peak_allocated"] == as_tuple["peak_allocated"]


def test_cudnn_rnn_weights_and_their_gradients_sit_in_one_buffer(factories):
    # On the GPU flatten_parameters moves the weights into one buffer and cuDNN's backward writes their
    # gradients into one: the allocator sees one block each, not eight (which fragment differently).
    kept = _kept(factories, "lstm_flat")
    assert len(kept["weights"]) == 1 and len(kept["gradients"]) == 1
    weights = next(iter(kept["weights"]))
    assert weights.nbytes() == sum(p.numel() * 4 for p in torch.nn.GRU(64, 128, num_layers=2).parameters())


def test_attention_output_layout_follows_the_kernel_cuda_picks(factories):
    kept = _kept(factories, "attention")
    # fp32 runs the memory-efficient kernel: its output is allocated (batch, length, heads, size),
    # so nn.MultiheadAttention's permute(2, 0, 1, 3).reshape() copies it.
    assert kept["fp32"] == (L * H * E, E, H * E, 1)
    # bf16 without a mask runs flash attention: the output takes the query's layout.
    assert kept["bf16"] == (H * E, E, B * H * E, 1)
    assert kept["bf16 masked"] == (L * H * E, E, H * E, 1)


def test_an_unmeasured_convolution_counts_its_estimated_workspace_and_is_named():
    # A ResNet layer measured at batch 64 and 128, run at 96: the heuristics' plan's workspace is
    # estimated from the nearest measured calls, in the transients, and the call is named as unmeasured.
    key = "backward_data float32 x96,128,28,28 w128,128,3,3 s1,1 p1,1 d1,1 C o0,0 g1"
    convs = ConvWorkspaces("NVIDIA H100 80GB HBM3")
    assert convs.transients([key], benchmark=False) == [(WORKSPACE, nearest_workspace(key, 2))]
    summary = convs.summary()
    assert summary["estimated_largest"] == nearest_workspace(key, 2) > 0
    assert summary["conv_unmeasured"] == 1 and summary["unmeasured_examples"] == [key]
    # Off Hopper the table does not hold, so nothing is estimated from it either.
    assert ConvWorkspaces("NVIDIA A100-SXM4-80GB").transients([key], benchmark=False) == []


def test_the_tracker_holds_no_gradient_while_a_module_waits_for_its_other_inputs():
    w = torch.ones(1024, requires_grad=True)
    later = w * 3  # made first, so its gradient is computed last (a shared input, a UNet's time embedding)
    first = w * 2
    calls, seen = [], []
    _multi_grad_hook_keeping_no_grads((first, later), calls.append)
    first.register_hook(lambda grad: seen.append(weakref.ref(grad)))
    later.register_hook(lambda grad: seen.append(seen[0]() is None))
    (first * later).sum().backward()
    # `first`'s gradient was freed once its node ran, before `later`'s came; the hook ran once, with no tensors.
    assert seen[1] is True
    assert calls == [[None, None]]


def test_a_graph_differentiated_for_some_of_its_inputs_is_freed_once_dropped():
    # An architecture search's step: `torch.autograd.grad(loss, alphas)` runs only the nodes that lead to
    # the alphas. A module input's node that does not run keeps what it saved (here `x`, saved by the
    # product for w's gradient); the tracker's hooks let it go at the end of that backward call, so the
    # graph is freed when the program drops it, as on the GPU.
    w, a = torch.ones(1024, requires_grad=True), torch.ones(1, requires_grad=True)
    x = torch.randn(1024)
    probe = weakref.ref(x)
    hidden = x * w  # a module's input: its node will not run
    del x
    _multi_grad_hook_keeping_no_grads((hidden,), lambda grads: None)
    head = hidden.sum() * a  # another module's input, on the way to `a`
    calls = []
    _multi_grad_hook_keeping_no_grads((head,), calls.append)
    (grad,) = torch.autograd.grad((head * 2).sum(), [a])
    assert calls == [[None]] and probe() is not None  # still held by the graph the program holds
    del head, hidden
    assert probe() is None
