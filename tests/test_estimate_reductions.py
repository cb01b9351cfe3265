"""The staging buffer of CUDA's reduction kernel (`memlint.estimate.reductions`) and the
cuDNN RNN workspace model's hidden-size floor, on CPU."""

from __future__ import annotations

import pickle

import pytest

from memlint.estimate.reductions import DEFAULT_SHAPE, gpu_shape, staging_bytes

MIB = 2**20


def test_a_tall_reduction_over_rows_takes_a_staging_buffer():
    # (2048, 784) float32 summed over its rows on an H100 (132 multiprocessors of 2048 threads): blocks of
    # 32 x 4 threads over 4-wide column vectors, 7 blocks of outputs, 512 values a thread: 32 blocks per
    # output share it through 4 B x 784 outputs x 32 blocks x 32 lanes x 4 = 12.25 MiB, the block
    # measured at the backward peak of pytorch/examples' VAE at batch 2048 (an H200).
    assert staging_bytes((2048, 784), (784, 1), [0], 4, 4) == 12_845_056
    # GPT-2's bias gradients at 8 x 512 tokens, as measured in HF Trainer's run: 24, 72 and 96 MiB; the
    # leading dimensions reduced together coalesce into one.
    assert staging_bytes((8, 512, 768), (512 * 768, 768, 1), [0, 1], 4, 4) == 24 * MIB
    assert staging_bytes((4096, 2304), (2304, 1), [0], 4, 4) == 72 * MIB
    assert staging_bytes((4096, 3072), (3072, 1), (-2,), 2, 4) == 96 * MIB


def test_short_full_and_contiguous_reductions_take_little_or_none():
    assert staging_bytes((128, 784), (784, 1), [0], 4, 4) == 0  # 32 values a thread: one block per output
    assert staging_bytes((2048, 784), (784, 1), None, 4, 4) == 4 * 196  # partial sums of 196 blocks
    assert staging_bytes((2048, 784), (784, 1), [1], 4, 4) == 0  # along the contiguous dimension
    assert staging_bytes((0, 784), (784, 1), [0], 4, 4) == 0
    assert staging_bytes((), (), None, 4, 4) == 0


def test_the_gpu_enters_through_its_multiprocessors():
    assert gpu_shape("NVIDIA H100 80GB HBM3") == DEFAULT_SHAPE == (132, 2048)
    assert gpu_shape("NVIDIA GeForce RTX 4090 24 GB") == (128, 1536)
    assert gpu_shape("NVIDIA T4 16 GB") == (40, 1024)
    assert gpu_shape("NVIDIA L40S 48 GB") == (142, 1536) and gpu_shape("NVIDIA L4 24 GB") == (58, 1536)
    assert gpu_shape("h100-80gb") == gpu_shape("unknown") == DEFAULT_SHAPE
    # A smaller GPU needs fewer blocks to be full: 64 blocks per output (at most 256 values a thread)
    # rather than the 66 that fill an H100's.
    tall = ((65536, 4096), (4096, 1), [0], 4, 4)
    assert staging_bytes(*tall, gpu_shape("t4")) == 4 * 4096 * 64 * 128
    assert staging_bytes(*tall) == 4 * 4096 * 66 * 128


torch = pytest.importorskip("torch")

from memlint.estimate import predict  # noqa: E402
from memlint.estimate.kernels import RNN_HIDDEN_FLOOR, rnn_sizes  # noqa: E402

FACTORY = '''
import torch
import torch.nn as nn

def vae_decoder():
    model = nn.Sequential(nn.Linear(20, 400), nn.ReLU(), nn.Linear(400, 784)).cuda()
    opt = torch.optim.Adam(model.parameters())
    z = torch.randn(2048, 20, device="cuda")
    def step():
        torch.sigmoid(model(z)).sum().backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
    return step
'''


def test_a_fake_run_allocates_the_bias_gradients_staging_buffer(tmp_path, monkeypatch):
    (tmp_path / "reduction_factory.py").write_text(FACTORY)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    snapshot = tmp_path / "snapshot.pickle"
    result = predict.predict_factory("reduction_factory:vae_decoder", eval_step=False, snapshot_file=str(snapshot))
    assert result["steps_run"] == 2 and not result["stopped"]
    with open(snapshot, "rb") as handle:
        trace = [e for t in pickle.load(handle)["device_traces"] for e in t]
    sizes = [e["size"] for e in trace if e["action"] == "alloc"]
    # The last Linear's bias gradient (2048 x 784 summed over the batch), once a step; the first one's
    # (2048 x 400) takes its own, smaller.
    assert sizes.count(12_845_056) == 2
    assert sizes.count(staging_bytes((2048, 400), (400, 1), [0], 4, 4)) == 2


def test_rnn_workspace_stops_shrinking_below_the_hidden_floor():
    small, floor = (rnn_sizes("LSTM", 28, 1024, hidden, 1, 1, 4, 0) for hidden in (64, RNN_HIDDEN_FLOOR))
    assert small["forward"] == floor["forward"] and small["backward"] == floor["backward"]
    assert small["reserve"] * RNN_HIDDEN_FLOOR == floor["reserve"] * 64  # the reserve keeps the real size
    # The weights' bytes add to both workspaces (about once forward, more backward).
    heavy = rnn_sizes("LSTM", 28, 1024, 64, 1, 1, 4, 64 * MIB)
    assert heavy["forward"] > small["forward"] + 56 * MIB and heavy["backward"] > small["backward"] + 64 * MIB


def test_rnn_workspace_takes_a_share_for_each_layer_and_direction_whatever_the_batch():
    # A bidirectional 4-layer LSTM at batch 1 took 70 MiB forward on an H100: eight layer-directions of about
    # 9 MiB, where one constant for the whole call gave 12 MiB.
    weights = 2 * 4 * 128 * ((28 + 128) + 3 * (256 + 128)) * 4
    deep = rnn_sizes("LSTM", 35, 1, 128, 4, 2, 4, weights)
    assert 56 * MIB < deep["forward"] < 84 * MIB
    one = rnn_sizes("LSTM", 35, 1, 128, 1, 1, 4, 0)
    assert 8 * MIB < one["forward"] < 11 * MIB


LOSS_FACTORY = '''
import torch
import torch.nn as nn

def regression(loss="mse", reduction="mean"):
    model = nn.Linear(256, 3000).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = torch.randn(1000, 256, device="cuda"), torch.randn(1000, 3000, device="cuda")
    fn = {"mse": nn.functional.mse_loss, "smooth_l1": nn.functional.smooth_l1_loss, "l1": nn.functional.l1_loss,
          "huber": nn.functional.huber_loss}[loss]
    def step():
        out = fn(model(x), y, reduction=reduction)
        (out if reduction != "none" else out.mean()).backward()
        opt.step()
        opt.zero_grad()
    return step

def smooth_l1():
    return regression("smooth_l1")

def huber():
    return regression("huber")

def mse_none():
    return regression("mse", "none")

def mse_sum():
    return regression("mse", "sum")
'''


@pytest.mark.parametrize("name, unreduced", [("regression", 2), ("smooth_l1", 2), ("huber", 1), ("mse_sum", 2),
                                             ("mse_none", 0)])
def test_a_reduced_mse_or_smooth_l1_loss_computes_the_unreduced_loss_first(tmp_path, monkeypatch, name, unreduced):
    # ATen's mse_loss, smooth_l1_loss and huber_loss with a mean or sum write the loss of every element to a
    # tensor of the inputs' size and then reduce it: one transient of the output's size (1000 x 3000 float32)
    # a step; CUDA's mse_loss and smooth_l1_loss take one more of that size first, which lives as long as
    # their result (huber_loss keeps none).
    # With reduction="none" that tensor is the output itself, an activation; nothing more is taken.
    (tmp_path / "loss_factory.py").write_text(LOSS_FACTORY)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    snapshot = tmp_path / "snapshot.pickle"
    result = predict.predict_factory(f"loss_factory:{name}", eval_step=False, snapshot_file=str(snapshot))
    assert result["steps_run"] == 2 and not result["stopped"]
    with open(snapshot, "rb") as handle:
        trace = [e for t in pickle.load(handle)["device_traces"] for e in t]
    other = [e for e in trace if e["action"] == "alloc" and e["size"] >= 1000 * 3000 * 4 and e["frames"]
             and "forward: other" in e["frames"][0]["name"]]  # the block the allocator gives it, at least its size
    assert len(other) == 2 * unreduced
