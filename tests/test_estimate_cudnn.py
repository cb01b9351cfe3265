"""cuDNN convolution workspaces in `memlint estimate`: the measured table against the stored
measurements, the autotuning trial in a fake run's peak, and the allocator's side of it."""

from __future__ import annotations

import io
import json
import os
import pickle
import sys
import textwrap

import pytest

pytest.importorskip("torch")

from memlint.estimate import predict, report  # noqa: E402
from memlint.estimate.allocator import Allocator  # noqa: E402
from memlint.estimate.cudnn_conv import nearest_workspace  # noqa: E402
from memlint.estimate.cudnn_workspaces import WORKSPACES  # noqa: E402
from memlint.estimate.summary import AUTOTUNING, EMPTY_CACHE, summarize  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MIB = 1 << 20
PROBE = os.path.join(ROOT, "benchmarks", "results", "estimate_conv_probe_h200.json")


@pytest.fixture(scope="module")
def probe() -> dict:
    with open(PROBE, encoding="utf-8") as handle:
        return json.load(handle)


def _first_trials(probe: dict) -> dict[str, int]:
    """The largest workspace of each shape's first call with cudnn.benchmark on, per process."""
    seen, trials = set(), {}
    for key, source, benchmark, _, spaces, _ in probe["calls"]:
        if benchmark and (source, key) not in seen:
            seen.add((source, key))
            name = probe["keys"][key]
            trials[name] = max(trials.get(name, 0), max(spaces, default=0))
    return trials


def test_the_table_is_the_stored_measurements(probe):
    trials = _first_trials(probe)
    assert len(trials) > 1000
    assert {k: v[0] for k, v in WORKSPACES.items() if v[0] is not None} == trials


def test_what_the_measurements_say_about_the_trial_workspace(probe):
    trials = _first_trials(probe)

    def trial(direction, n, c, k, size, kernel, stride, pad, transposed=False):
        w = f"{c},{k}" if transposed else f"{k},{c}"
        out_pad = f"{stride - 1},{stride - 1}" if transposed else "0,0"
        return trials[f"{direction} float32 x{n},{c},{size},{size} w{w},{kernel},{kernel} s{stride},{stride} "
                      f"p{pad},{pad} d1,1 {'T' if transposed else 'C'} o{out_pad} g1"]

    # The 32x32-tile FFT: the filter's transform and each image's input and output, 32 x 17 complex
    # values each, for a 3x3 backward-data of 512 channels on 7x7: exact at every batch size.
    for n in (1, 8, 32, 128):
        assert trial("backward_data", n, 512, 512, 7, 3, 1, 1) == pytest.approx(
            (512 * 512 + n * 1024) * 32 * 17 * 8, rel=1e-3)
    # Which engines cuDNN offers changes with the batch, both ways: no formula over the shapes.
    assert trial("forward", 32, 128, 256, 32, 5, 1, 2) > 5 * trial("forward", 128, 128, 256, 32, 5, 1, 2)
    # DCGAN's second generator layer at batch 64: 2.6 GiB for tensors of 2 MiB.
    dcgan = trials["forward float32 x64,512,4,4 w512,256,4,4 s2,2 p1,1 d1,1 T o0,0 g1"]
    assert dcgan > 2500 * MIB


FACTORY = '''
import torch
import torch.nn as nn

def mnist(benchmark=True, batch=64):
    torch.backends.cudnn.benchmark = benchmark
    model = nn.Sequential(nn.Conv2d(1, 32, 3, 1), nn.ReLU(), nn.Conv2d(32, 64, 3, 1), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Flatten(), nn.Linear(9216, 128), nn.ReLU(), nn.Linear(128, 10)).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.randn(batch, 1, 28, 28, device="cuda")
    def step():
        model(x).sum().backward()
        opt.step()
        opt.zero_grad()
    return step

def mnist_plain():
    return mnist(False)

def mnist_unmeasured():
    return mnist(True, 48)

def mnist_deterministic():
    step = mnist(True)
    torch.backends.cudnn.deterministic = True  # other plans: the measurements do not hold
    return step
'''


@pytest.fixture
def factory(tmp_path, monkeypatch):
    import torch

    for flag in ("benchmark", "deterministic"):  # the factories set them: restored after the test
        monkeypatch.setattr(torch.backends.cudnn, flag, getattr(torch.backends.cudnn, flag))
    name = f"cudnn_factories_{abs(hash(str(tmp_path))) % 10**8}"
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(FACTORY))
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    return name


def _run(module: str, name: str) -> dict:
    result = predict.predict_factory(f"{module}:{name}", eval_step=False)
    assert not result["stopped"] and result["steps_run"] == 2
    return result


def test_cudnn_benchmark_puts_the_measured_trial_in_the_peak(factory):
    tuned = _run(factory, "mnist")
    conv = tuned["kernel_side"]
    # The second layer's weight gradient: 60 MiB of trial workspace, in the peak readings, not in the need.
    key = "backward_weight float32 x64,32,26,26 w64,32,3,3 s1,1 p0,0 d1,1 C o0,0 g1"
    assert conv["autotuning_largest"] == WORKSPACES[key][0] > 50 * MIB
    assert conv["autotuning_largest_call"] == key and conv["autotuning_unmeasured"] == 0
    assert conv["conv_unmeasured"] == 0 and conv["estimated_largest"] == 0
    assert tuned["peak_allocated"] >= tuned["peak_allocated_without_autotuning"] + WORKSPACES[key][0] // 2
    plain = _run(factory, "mnist_plain")
    assert plain["kernel_side"]["autotuning_largest"] == 0
    assert plain["peak_allocated"] == plain["peak_allocated_without_autotuning"]
    assert plain["peak_allocated"] < tuned["peak_allocated"]
    text = io.StringIO()
    report.write(tuned, "text", text, None)
    assert "cudnn.benchmark autotuning" in text.getvalue() and "not measured" not in text.getvalue()
    assert "without autotuning trials" in text.getvalue() and "at least" not in text.getvalue()
    out = io.StringIO()
    report.write(tuned, "json", out, None)
    assert json.loads(out.getvalue())["lower_bound"] == ""


@pytest.mark.parametrize("name", ["mnist_unmeasured", "mnist_deterministic"])
def test_an_unmeasured_trial_is_named_not_guessed(factory, name):
    result = _run(factory, name)
    conv = result["kernel_side"]
    assert conv["autotuning_unmeasured"] == conv["conv_unmeasured"] == 5 and conv["autotuning_largest"] == 0
    assert conv["estimated_largest"] > 0  # the plan it would choose: estimated, in the peak
    text = io.StringIO()
    report.write(result, "text", text, None)
    assert "autotuning not measured" in text.getvalue() and "lower bound" in text.getvalue()
    assert "at least" in text.getvalue()
    # Said to a program too (JSON) and to CI (a warning annotation), not only in the text
    out = io.StringIO()
    report.write(result, "json", out, None)
    assert "5 convolution shape(s) never measured" in json.loads(out.getvalue())["lower_bound"]
    annotations = io.StringIO()
    report.write(result, "github", annotations, None)
    assert "::warning" in annotations.getvalue() and "lower bound" in annotations.getvalue()


def test_an_unmeasured_call_takes_its_nearest_measured_calls_workspace():
    # A ResNet layer measured at batch 64 and 128 (the heuristics' plan: 52 and 103 MiB), asked at 96.
    layer = "backward_data float32 x{},128,28,28 w128,128,3,3 s1,1 p1,1 d1,1 C o0,0 g1"
    assert layer.format(96) not in WORKSPACES
    assert WORKSPACES[layer.format(64)][2] < nearest_workspace(layer.format(96), 2) < WORKSPACES[layer.format(128)][2]
    assert nearest_workspace("forward float64 x1,1,8,8 w1,1,3,3 s1,1 p0,0 d1,1 C o0,0 g1", 2) is None  # none of its kind


def test_a_channels_last_call_takes_its_channels_last_neighbours_workspace():
    # Pytorch-UNet under fp16 autocast (channels-last, batch 2, 64 channels on 640x959): on an H100 its
    # largest convolution workspace was 21 MiB, where the NCHW calls nearest to it take 3.6 times its
    # 150 MiB tensors. Channels-last calls take the workspaces of the channels-last sweep.
    call = "backward_data float16 x2,64,640,959 w64,64,3,3 s1,1 p1,1 d1,1 C o0,0 g1"
    tensor = 2 * 64 * 640 * 959 * 2
    assert call not in WORKSPACES and call + " cl" not in WORKSPACES
    assert nearest_workspace(call + " cl", 2) < 0.2 * tensor < tensor < nearest_workspace(call, 2)
    assert any(key.endswith(" cl") and key.startswith("backward_data float16") for key in WORKSPACES)


def test_the_estimate_beats_leaving_unmeasured_calls_out():
    # Each shape of the table left out with all its batch sizes and estimated from the rest
    # (benchmarks/estimate/conv_neighbours.py): within 50% (or 1 MiB) for most calls, and a summed error
    # well below the 100% of leaving them out.
    sys.path.insert(0, os.path.join(ROOT, "benchmarks", "estimate"))
    try:
        from conv_neighbours import left_out
    finally:
        sys.path.pop(0)
    calls, within, error = left_out(2)
    assert calls == len(WORKSPACES) and within > 0.65 and error < 0.7


def test_the_snapshot_holds_the_trial_and_the_emptied_cache(factory, tmp_path):
    path = tmp_path / "snapshot.pickle"
    result = predict.predict_factory(f"{factory}:mnist", eval_step=False, snapshot_file=str(path))
    with open(path, "rb") as handle:
        trace = pickle.load(handle)["device_traces"][0]
    trial = WORKSPACES["backward_weight float32 x64,32,26,26 w64,32,3,3 s1,1 p0,0 d1,1 C o0,0 g1"][0]
    allocs = [e for e in trace if e["action"] == "alloc" and "autotuning" in e["frames"][0]["name"]]
    assert max(e["size"] for e in allocs) >= trial
    assert any(e["action"] == "segment_free" for e in trace)  # PyTorch empties its cache after each trial
    assert result["kernel_side"]["autotuning_largest"] == trial


@pytest.mark.parametrize("name, emptied", [("mnist_unmeasured", True), ("mnist_plain", False)])
def test_an_unmeasured_trial_still_empties_the_cache(factory, tmp_path, name, emptied):
    # PyTorch empties its cache after cudnn.benchmark's trials of a shape whatever they took: the segments
    # the forward freed go back to the driver also where the trial is not known (ConvNeXt-T at batch 32,
    # reserved: 4,114 MiB without the emptying, 4,222 with it, 4,668 on an H200). Benchmark off: no trial.
    path = tmp_path / "snapshot.pickle"
    result = predict.predict_factory(f"{factory}:{name}", eval_step=False, snapshot_file=str(path))
    with open(path, "rb") as handle:
        trace = pickle.load(handle)["device_traces"][0]
    assert any(e["action"] == "segment_free" for e in trace) is emptied
    assert result["kernel_side"]["autotuning_largest"] == 0
    assert not any(e["action"] == "alloc" and e["frames"] and "autotuning" in e["frames"][0]["name"] for e in trace)


def test_empty_cache_returns_the_free_segments():
    model = Allocator()
    model.malloc(1, 30 * MIB)
    model.malloc(2, 40 * MIB)
    model.free(2)
    assert model.reserved == 70 * MIB
    model.empty_cache()
    assert model.reserved == 30 * MIB and model.allocated == 30 * MIB
    model.malloc(3, 40 * MIB)  # a new segment again
    assert model.reserved == 70 * MIB


def test_a_trial_larger_than_the_free_memory_is_bounded_by_it():
    events = [(1, 1, 600 * MIB, "Activation", 0), (1, 2, 900 * MIB, AUTOTUNING, 0), (-1, 2, 900 * MIB, AUTOTUNING, 0),
              (EMPTY_CACHE, 0, 0, "", 0)]
    result = summarize(events, ["step 1 backward"], [], 0, {"capacity": 1000 * MIB})
    assert result["autotuning_bounded_by_free_memory"] == ["step 1 backward"]
    assert result["peak_reserved"] <= 1000 * MIB and result["peak_allocated"] == 1000 * MIB
    assert result["peak_allocated_without_autotuning"] == 600 * MIB
    roomy = summarize(events, ["step 1 backward"], [], 0, {"capacity": 80 << 30})
    assert roomy["peak_allocated"] == 1500 * MIB and not roomy["autotuning_bounded_by_free_memory"]


def test_the_measurements_hold_on_hopper_only(factory):
    # cuDNN offers other engines on other architectures: on an A100 every call is unmeasured.
    result = predict.predict_factory(f"{factory}:mnist", eval_step=False, gpu=("NVIDIA A100-SXM4-80GB", 80 << 30))
    conv = result["kernel_side"]
    assert conv["measured_on"] == "" and conv["autotuning_unmeasured"] == 5 and conv["autotuning_largest"] == 0
    assert result["peak_allocated"] == result["peak_allocated_without_autotuning"]


def test_the_h200_measurements_hold_on_an_h100():
    # Eight of the networks measured again on an H100 (conv_table.py check): the same workspace for
    # nearly every call, and within a few MiB where not.
    with open(os.path.join(ROOT, "benchmarks", "results", "estimate_conv_probe_h100_check.json"),
              encoding="utf-8") as handle:
        h100 = json.load(handle)
    assert "H100" in h100["gpu"]
    column = {"benchmark": 0, "plain": 2}
    pairs = [(WORKSPACES[key][column[mode]], size) for mode, _, key, size in h100["calls"]
             if key in WORKSPACES and WORKSPACES[key][column[mode]] is not None]
    assert len(pairs) > 900
    same = sum(h200 == size for h200, size in pairs)
    assert same >= 0.98 * len(pairs)
    assert all(abs(h200 - size) <= 8 * MIB for h200, size in pairs)
    assert max(size for _, size in pairs) > 2500 * MIB  # DCGAN's 2.6 GiB trial, the same on both
