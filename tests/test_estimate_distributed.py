"""`memlint estimate` per rank (fake process group) and its kernel-side memory, on CPU."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import textwrap

import pytest
from samples import importable_module

from memlint.estimate.launch import World, torchrun_world

torch = pytest.importorskip("torch")

from memlint.estimate import predict, report  # noqa: E402
from memlint.estimate.cudnn_conv import conv_key, nearest_workspace  # noqa: E402
from memlint.estimate.kernels import rnn_sizes  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MIB = 2**20

# Parameters: 6 x Linear(512, 512) = 6.02 MiB in fp32; one bucket's worth of gradients each step.
FACTORIES = '''
import torch
import torch.nn as nn

def _model():
    return nn.Sequential(*[nn.Linear(512, 512) for _ in range(6)]).cuda()

def _step(model):
    opt = torch.optim.Adam(model.parameters())
    x = torch.randn(32, 512, device="cuda")
    def step():
        model(x).sum().backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
    return step

def ddp():
    torch.distributed.init_process_group("nccl")
    return _step(nn.parallel.DistributedDataParallel(_model(), device_ids=[0]))

def fsdp2():
    from torch.distributed.fsdp import fully_shard
    with torch.device("meta"):  # as FSDP2 is meant to be used: no rank holds the whole model
        model = nn.Sequential(*[nn.Linear(512, 512) for _ in range(6)])
    for layer in model:
        fully_shard(layer)
    fully_shard(model)
    model.to_empty(device="cuda")
    return _step(model)

def fsdp2_initialized():
    # Weights initialized after sharding, on the DTensor shards (the FSDP2 example's order):
    # DTensor's random ops run in their own higher-order op.
    from torch.distributed.fsdp import fully_shard
    with torch.device("meta"):
        model = nn.Sequential(*[nn.Linear(512, 512) for _ in range(6)], nn.Dropout(0.1))
    for layer in model[:6]:
        fully_shard(layer)
    fully_shard(model)
    model.to_empty(device="cuda")
    for layer in model[:6]:
        layer.reset_parameters()
    return _step(model)

def fsdp1():
    from torch.distributed.fsdp import FullyShardedDataParallel
    from torch.distributed.fsdp.wrap import ModuleWrapPolicy
    model = FullyShardedDataParallel(_model(), auto_wrap_policy=ModuleWrapPolicy({nn.Linear}), device_id=0)
    return _step(model)

def plain():
    return _step(_model())

def addresses():
    # accelerate maps an optimizer's parameters to FSDP's sharded ones by data_ptr: distinct tensors
    # need distinct addresses, views their storage's plus the offset.
    model = _model()
    a, b = torch.zeros(10, device="cuda"), torch.zeros(10, device="cuda")
    assert a.data_ptr() != b.data_ptr() and a[2:].data_ptr() == a.data_ptr() + 8 and a.view(2, 5).data_ptr() == a.data_ptr()
    assert len({p.data_ptr() for p in model.parameters()}) == 12
    return _step(model)

def convnet():
    torch.backends.cudnn.benchmark = True
    model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 8, 3, padding=1)).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.randn(4, 3, 32, 32, device="cuda")
    def step():
        model(x).sum().backward()
        opt.step()
        opt.zero_grad()
    return step

def _resized(on_side_stream):
    # FSDP1's all-gather: a storage resized on its unshard stream, freed (resized to 0) after use.
    flat = torch.empty(0, device="cuda")
    side = torch.cuda.Stream()
    def step():
        with torch.cuda.stream(side if on_side_stream else torch.cuda.current_stream()):
            flat.untyped_storage().resize_(64 * 2**20)
        flat.untyped_storage().resize_(0)
        work = torch.randn(8 * 2**20, device="cuda", requires_grad=True)  # 32 MiB on the compute stream
        (work * 2).sum().backward()
    return step

def resized_on_side_stream():
    return _resized(True)

def resized_on_compute_stream():
    return _resized(False)

def lstm():
    model = nn.LSTM(32, 64, num_layers=2).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.randn(10, 4, 32, device="cuda")
    def step():
        model(x)[0].sum().backward()
        opt.step()
        opt.zero_grad()
    return step

def lstm_autocast():
    # With an initial state, as a language model carries it between batches.
    model = nn.LSTM(32, 64, num_layers=2).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.randn(10, 4, 32, device="cuda")
    state = (torch.zeros(2, 4, 64, device="cuda"), torch.zeros(2, 4, 64, device="cuda"))
    def step():
        with torch.autocast("cuda", dtype=torch.bfloat16):
            out = model(x, state)[0]
        out.float().sum().backward()
        opt.step()
        opt.zero_grad()
    return step
'''
PARAMS = 6 * (512 * 512 + 512) * 4


@pytest.fixture(scope="module")
def factories(tmp_path_factory):
    """The factories' module, one for the whole file: a prediction that several tests compare with
    is made once (`_run`)."""
    with importable_module(tmp_path_factory.mktemp("dist"), "dist_factories", FACTORIES) as name:
        yield name


_RUNS: dict[tuple, dict] = {}


def _predict(module: str, factory: str, world_size: int | None) -> dict:
    result = predict.predict_factory(f"{module}:{factory}", eval_step=False, world_size=world_size)
    assert not result["stopped"], result["stopped"]
    assert result["steps_run"] == 2
    return result


def _run(module: str, factory: str, world_size: int | None) -> dict:
    """`_predict`, made once per module (the tests only read it)."""
    if (module, factory, world_size) not in _RUNS:
        _RUNS[module, factory, world_size] = _predict(module, factory, world_size)
    return _RUNS[module, factory, world_size]


def test_torchrun_commands_give_the_world_and_the_scripts_own_command():
    assert torchrun_world(["torchrun", "--standalone", "--nproc-per-node=4", "train.py", "--lr", "1"], "py") == (
        World(4, 0, 4), ["py", "train.py", "--lr", "1"])
    assert torchrun_world(["torchrun", "--nnodes", "2", "--nproc_per_node", "8", "-m", "pkg.train"], "py") == (
        World(16, 0, 8), ["py", "-m", "pkg.train"])
    assert torchrun_world(["/venv/bin/python3", "-m", "torch.distributed.run", "--nproc-per-node", "2", "t.py"],
                          "py") == (World(2, 0, 2), ["/venv/bin/python3", "t.py"])
    assert torchrun_world(["python", "-m", "torch.distributed.launch", "--nproc_per_node=2", "t.py", "--x"], "py") == (
        World(2, 0, 2), ["python", "t.py", "--local-rank=0", "--x"])
    assert torchrun_world(["python", "train.py"], "py") is None


def test_ddp_replicates_the_model_on_every_rank_and_adds_its_gradient_buckets(factories):
    two, many, alone = (_run(factories, "ddp", n) for n in (2, 64, 1))
    assert two["world_size"] == 2 and many["world_size"] == 64 and alone["world_size"] == 1
    # Every rank holds the whole model, its gradients, Adam's state and the flat buckets DDP reduces.
    assert two["peak_allocated"] == many["peak_allocated"]
    buckets = two["breakdown"]["DDP gradient buckets"]
    assert PARAMS <= buckets <= PARAMS + 6 * 2 * 512  # one flat copy of the gradients (512-byte rounding)
    assert two["peak_allocated"] - _run(factories, "plain", None)["peak_allocated"] == buckets
    # Where NCCL still holds the first bucket when step 2 rebuilds them, the rank holds one bucket more;
    # the job fits when that rank does. One rank alone has no such rank.
    some = two["some_ranks"]
    assert some["held"] == buckets and some["peak_allocated"] == two["peak_allocated"] + buckets
    assert some["peak_reserved"] >= two["peak_reserved"] and "some_ranks" not in alone
    text = io.StringIO()
    report.write(two, "text", text, None)
    assert "on some ranks:" in text.getvalue() and "first-step bucket" in text.getvalue()
    fuller = dict(two, some_ranks=dict(some, peak_reserved=two["peak_reserved"] + 100 * MIB))
    budget = two["peak_reserved"] + 50 * MIB  # enough for the other ranks only
    assert report.verdict(two, budget)[0] == 0 and report.verdict(fuller, budget)[0] == 1


@pytest.mark.parametrize("fsdp", ["fsdp2", "fsdp1"])
def test_fsdp_shards_parameters_gradients_and_optimizer_state_by_the_world_size(factories, fsdp):
    two, many = (_run(factories, fsdp, n) for n in (2, 64))
    plain = _run(factories, "plain", None)
    # Adam's two moments of a 1/N shard (512 rows split evenly; FSDP1 flattens each unit first).
    assert two["breakdown"]["optimizer state"] == pytest.approx(2 * PARAMS / 2, rel=0.01)
    assert many["steps"]["2"] < two["steps"]["2"] < plain["steps"]["2"]
    if fsdp == "fsdp2":  # built on the meta device: no rank ever holds the whole model, the peak is in training
        assert many["breakdown"]["optimizer state"] == pytest.approx(2 * PARAMS / 64, rel=0.05)


def test_fsdp2_side_streams_hold_their_own_segments(factories, monkeypatch):
    # FSDP2 all-gathers and reduce-scatters on streams of its own; the allocator model keeps their
    # freed blocks for them, so the reserved prediction is above the one-stream replay.
    from memlint.estimate import summary

    seen = {}

    def summarize(events, phases, modules, workspace, extra, streams=None, workspace_at=None):
        seen.update(events=events, phases=phases, workspace=workspace, streams=streams, workspace_at=workspace_at)
        return summary.summarize(events, phases, modules, workspace, extra, streams, workspace_at=workspace_at)

    monkeypatch.setattr(predict, "summarize", summarize)
    result = _predict(factories, "fsdp2", 2)  # not a prediction made before: this one's summary is seen
    assert len(set(seen["streams"].values())) >= 2  # all-gather copy-in and reduce-scatter
    one_stream = summary.summarize(seen["events"], seen["phases"], [], seen["workspace"], {},
                                   workspace_at=seen["workspace_at"])
    assert result["peak_allocated"] == one_stream["peak_allocated"]
    assert result["peak_reserved"] > one_stream["peak_reserved"]


def test_a_storage_resized_on_a_side_stream_keeps_its_segment_there(factories):
    # The side stream's 64 MiB segment cannot serve the compute stream's 32 MiB tensors afterwards.
    side, compute = (predict.predict_factory(f"{factories}:{name}", steps=2, eval_step=False, world_size=2)
                     for name in ("resized_on_side_stream", "resized_on_compute_stream"))
    assert side["peak_allocated"] == compute["peak_allocated"]
    assert side["peak_reserved"] >= compute["peak_reserved"] + 32 * MIB


def test_fake_tensors_have_distinct_addresses(factories):
    _run(factories, "addresses", None)


def test_fsdp2_weights_initialized_on_the_shards(factories):
    two = _run(factories, "fsdp2_initialized", 2)
    assert two["breakdown"]["optimizer state"] == pytest.approx(2 * PARAMS / 2, rel=0.01)


def test_world_size_is_in_the_text_report(factories):
    from io import StringIO

    from memlint.estimate import report

    out = StringIO()
    report.write(_run(factories, "fsdp2", 8), "text", out, None)
    assert "rank 0 of 8 (fake process group)" in out.getvalue().splitlines()[0]


TORCHRUN_SCRIPT = '''
import os
import torch
import torch.distributed as dist
import torch.nn as nn

torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
dist.init_process_group("nccl")
assert dist.get_world_size() == int(os.environ["WORLD_SIZE"]) and dist.get_rank() == 0
model = nn.parallel.DistributedDataParallel(nn.Linear(256, 256).cuda(), device_ids=[int(os.environ["LOCAL_RANK"])])
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(3):
    model(torch.randn(8, 256, device="cuda")).sum().backward()
    opt.step()
    opt.zero_grad()
'''


@pytest.mark.parametrize("options, world", [((), 4), (("--world-size", "64"), 64)])
def test_a_torchrun_command_is_estimated_as_its_rank_0(tmp_path, options, world):
    (tmp_path / "train.py").write_text(textwrap.dedent(TORCHRUN_SCRIPT))
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run([sys.executable, "-m", "memlint", "estimate", "--format", "json", *options, "--",
                           "torchrun", "--standalone", "--nproc-per-node", "4", "train.py"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["stopped"] == "" and data["steps_run"] == 2
    assert data["world_size"] == world and data["rank"] == 0
    assert data["breakdown"]["DDP gradient buckets"] == (256 * 256 + 256) * 4


def test_kernel_side_memory_is_named_and_bounded(factories):
    result = _run(factories, "convnet", None)
    conv = result["kernel_side"]
    # Shapes never measured: each call's workspace is estimated from the nearest measured calls (the plan
    # cudnn.benchmark would choose) and is in the peak; the 5 calls' autotuning is named as missing from it
    # (per step: 2 forwards, the first layer's weight gradient, the second's data and weight gradients).
    calls = [conv_key(direction, "float32", x, w, (1, 1), (1, 1), (1, 1), False, (0, 0), 1)
             for direction, x, w in (("forward", (4, 3, 32, 32), (16, 3, 3, 3)), ("forward", (4, 16, 32, 32), (8, 16, 3, 3)),
                                     ("backward_weight", (4, 3, 32, 32), (16, 3, 3, 3)),
                                     ("backward_data", (4, 16, 32, 32), (8, 16, 3, 3)),
                                     ("backward_weight", (4, 16, 32, 32), (8, 16, 3, 3)))]
    assert conv["estimated_largest"] == max(nearest_workspace(key, 1) for key in calls) > 0 and conv["cudnn_benchmark"]
    assert (conv["conv_calls"], conv["conv_calls_unmeasured"], conv["conv_unmeasured"], conv["autotuning_unmeasured"]) \
        == (10, 10, 5, 5)
    # in the peak: the workspace of the backward's first call, the last layer's weight gradient (the
    # first layer's, a little larger, runs when the activations it saved are already freed)
    assert result["breakdown"]["cuDNN conv workspace"] == nearest_workspace(calls[4], 1)
    text = io.StringIO()
    report.write(result, "text", text, None)
    assert "an estimate, in the peak" in text.getvalue() and "autotuning not measured" in text.getvalue()
    assert all(key in text.getvalue() for key in sorted(calls)[:3]) and "(2 more shapes)" in text.getvalue()
    assert "lower bound" in text.getvalue()
    lstm = _run(factories, "lstm", None)
    # seq 10, batch 4, hidden 64, 2 layers, fp32: the reserve keeps 5 values a step and layer, and the
    # inner layer's output; the workspaces follow the fitted model, with the weight matrices' bytes.
    weights = 4 * 64 * ((32 + 64) + (64 + 64)) * 4
    sizes = rnn_sizes("LSTM", 10, 4, 64, 2, 1, 4, weights)
    assert sizes["reserve"] == 10 * 4 * 64 * 4 * (5 * 2 + 1)
    assert lstm["kernel_side"] == {"cudnn_rnn_reserve": sizes["reserve"], "rnn": "LSTM",
                                   "cudnn_rnn_workspace": max(sizes["forward"], sizes["backward"])}
    # The peak is the backward's workspace over the parameters, the input and the outputs' gradients:
    # what the CPU's LSTM would keep for backward (several times the reserve) is not there.
    assert lstm["peak_phase"].endswith("backward")
    # (The workspace's block is the whole 2 MiB-rounded segment when the rest is too small to split.)
    segment = -(-sizes["backward"] // (2 * MIB)) * 2 * MIB
    assert sizes["backward"] < lstm["peak_allocated"] < segment + sizes["reserve"] + MIB
    # Under CUDA autocast cuDNN runs the RNN in the autocast dtype: 2-byte reserve and workspaces.
    half = rnn_sizes("LSTM", 10, 4, 64, 2, 1, 2, weights // 2)
    assert _run(factories, "lstm_autocast", None)["kernel_side"]["cudnn_rnn_reserve"] == half["reserve"]
    plain = _run(factories, "plain", None)
    assert plain["kernel_side"] == {}
    # Two cuBLAS workspaces of 32 MiB on Hopper: the forward's thread and autograd's device thread.
    assert plain["breakdown"]["cuBLAS workspace (assumed)"] == 2 * 32 * MIB
