"""`memlint estimate` on small programs written the way public training scripts are: tied
weights, batches drawn with `torch.randint(len(data) - block, ...)`, a formatted loss, the
device-generic API, and the cases where it must refuse rather than guess."""

from __future__ import annotations

import json
import os
import runpy
import subprocess
import sys
import textwrap

import pytest

torch = pytest.importorskip("torch")

from memlint.estimate import scalars  # noqa: E402
from memlint.estimate.fakegpu import FakeGPU  # noqa: E402
from memlint.estimate.tracker import StepTracker  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# A GPT-2-shaped model with the embedding tied to the output layer, trained nanoGPT's way.
GPT = '''
import torch, torch.nn as nn
from torch.nn import functional as F

V, D, T, BATCH = 96, 32, 16, 8

class GPT(nn.Module):
    def __init__(self):
        super().__init__()
        self.transformer = nn.ModuleDict(dict(
            wte=nn.Embedding(V, D), wpe=nn.Embedding(T, D),
            h=nn.ModuleList([nn.Sequential(nn.LayerNorm(D), nn.Linear(D, 4 * D), nn.GELU(), nn.Linear(4 * D, D))
                             for _ in range(2)])))
        self.lm_head = nn.Linear(D, V, bias=False)
        self.transformer.wte.weight = self.lm_head.weight  # tied

    def forward(self, idx, targets=None):
        pos = torch.arange(idx.shape[1], device=idx.device)
        x = self.transformer.wte(idx) + self.transformer.wpe(pos)
        for block in self.transformer.h:
            x = x + block(x)
        logits = self.lm_head(x)
        loss = None if targets is None else F.cross_entropy(logits.view(-1, V), targets.view(-1))
        return logits, loss

device = "cuda" if torch.cuda.is_available() else "cpu"
data = torch.randint(0, V, (5000,))

def get_batch():
    ix = torch.randint(len(data) - T, (BATCH,){index_device})
    x = torch.stack([data[i:i + T] for i in ix])
    y = torch.stack([data[i + 1:i + 1 + T] for i in ix])
    return x.to(device), y.to(device)

@torch.no_grad()
def estimate_loss():                # nanoGPT's: 2 x 200 evaluation batches
    out = {}
    model.eval()
    for split in ("train", "val"):
        losses = torch.zeros(200)
        for k in range(200):
            x, y = get_batch()
            _, loss = model(x, y)
            losses[k] = loss.item()
        out[split] = losses.mean()
    model.train()
    return out

model = GPT().to(device)
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
best = 1e9
for it in range(5):
    if it % 100 == 0:
        losses = estimate_loss()
        if losses["val"] < best:    # real: the host tensor of the losses
            best = losses["val"]
        print(f"val {losses['val']:.4f}")
    x, y = get_batch()
    logits, loss = model(x, y)
    loss.backward()
    opt.step()
    opt.zero_grad(set_to_none=True)
    print(f"step {it}: loss {loss:.4f}")
'''


def _round(n: int) -> int:
    return -(-n // 512) * 512


def _estimate(tmp_path, source: str, *options: str) -> subprocess.CompletedProcess:
    (tmp_path / "train.py").write_text(textwrap.dedent(source))
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "memlint", "estimate", *options, "--", sys.executable, "train.py"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)


def test_tied_gpt_with_host_indices_runs_unmodified(tmp_path):
    done = _estimate(tmp_path, GPT.replace("{index_device}", ""), "--format", "json")
    assert done.returncode == 0, done.stdout + done.stderr
    data = json.loads(done.stdout)
    assert data["steps_run"] == 2 and not data["stopped"]
    v, d, t, batch = 96, 32, 16, 8
    block = 2 * _round(d * 4) + _round(d * 4 * d * 4) + _round(4 * d * 4) + _round(4 * d * d * 4) + _round(d * 4)
    # The tied matrix once (not once per module that holds it), the position table, two blocks.
    assert data["breakdown"]["parameters"] == _round(v * d * 4) + _round(t * d * 4) + 2 * block
    # The batch has its real rows: indices drawn on the host are real, so the slices are T long.
    assert data["breakdown"]["inputs (batch)"] == 2 * _round(batch * t * 8)
    # The fake values read, and how: the evaluation's losses as numbers, the training loss formatted.
    lines = GPT.splitlines()
    uses = [(u["kind"], int(u["site"].rsplit(":", 1)[1]), u["count"]) for u in data["scalar_uses"]]
    assert uses == [("value", lines.index("            losses[k] = loss.item()") + 1, 400),
                    ("format", lines.index('    print(f"step {it}: loss {loss:.4f}")') + 1, 1)]
    # The evaluation: 3 forwards run, the other 397 answered from the last; its peak on its own line.
    assert (data["eval_forwards"], data["eval_skipped"]) == (3, 397) and data["eval_peak"] > 0
    assert data["modules"][0]["forward_growth"] > 0  # the training forward's, not the evaluation's


def test_indices_drawn_on_the_gpu_have_real_values(tmp_path):
    # Small GPU tensors made without the model keep real values: the slices are T long. (Each batch
    # drawn this way costs more: 20 evaluation batches, not nanoGPT's 200, show the same.)
    source = GPT.replace("{index_device}", ", device=device").replace("(200)", "(20)")
    assert source.count("(20)") == 2
    done = _estimate(tmp_path, source, "--format", "json")
    assert done.returncode == 0, done.stdout + done.stderr
    data = json.loads(done.stdout)
    assert data["steps_run"] == 2 and data["breakdown"]["inputs (batch)"] == 2 * _round(8 * 16 * 8)


def test_a_gpu_value_as_a_slice_bound_stops_with_one_line(tmp_path):
    # An offset computed by the model on the GPU has no values in a fake run.
    done = _estimate(tmp_path, GPT.replace("{index_device}", ", device=device) + model.lm_head.weight.sum().long("))
    assert done.returncode == 2, done.stdout + done.stderr
    line = GPT.splitlines().index("    x = torch.stack([data[i:i + T] for i in ix])") + 1
    assert f"train.py:{line}: cannot run fake: a value computed on the GPU is used as an index" in done.stdout
    assert "no training step ran fake" in done.stdout and "Traceback" not in done.stdout + done.stderr


def _run_fake(tmp_path, source: str, name: str = "prog.py") -> StepTracker:
    path = tmp_path / name
    path.write_text(textwrap.dedent(source))
    tracker = StepTracker()
    with FakeGPU(tracker):
        tracker.start_training()
        runpy.run_path(str(path), run_name="__main__")
    return tracker


def test_a_gpu_value_indexing_one_element_is_answered_and_listed(tmp_path, capsys):
    # Conv-TasNet's loss reorders each source by its best permutation, `source[b, perm[b][c]]`: one
    # element of a dimension, a view of the same shape whichever it is, read and written.
    tracker = _run_fake(tmp_path, """
        import torch
        source = torch.nn.Linear(4, 6).cuda()(torch.randn(2, 4, device="cuda")).view(2, 2, 3)
        best = source.sum(2).argmax(1)                    # computed on the GPU: no data
        picked = torch.stack([source[b, best[b]] for b in range(2)])
        out = torch.zeros_like(source)
        out[0, best[1]] = picked[1]
        print(tuple(picked.shape), tuple(out[best[0]].shape))
    """)
    assert capsys.readouterr().out.split("\n")[0] == "(2, 3) (2, 3)"
    assert [(u.kind, u.count, u.answer) for u in tracker.record.scalar_uses.values()] == \
        [(scalars.ELEMENT, 2, 0), (scalars.ELEMENT, 1, 0), (scalars.ELEMENT, 1, 0)]


@pytest.mark.parametrize("key", ["best[0]:", ":best[1], best[0]", "best[0]:best[0] + 1"])
def test_a_gpu_value_as_a_slice_bound_beside_an_element_index_still_stops(tmp_path, key):
    with pytest.raises(scalars.FakeValueNeeded, match="used as an index, a slice bound"):
        _run_fake(tmp_path, f"""
            import torch
            source = torch.nn.Linear(4, 6).cuda()(torch.randn(2, 4, device="cuda")).view(2, 2, 3)
            best = source.sum(2).argmax(1)
            print(source[{key}].shape)
        """)


def test_a_gpu_value_deciding_an_if_stops(tmp_path):
    with pytest.raises(scalars.FakeValueNeeded, match="decides an `if`"):
        _run_fake(tmp_path, """
            import torch
            loss = torch.nn.Linear(4, 1).cuda()(torch.randn(2, 4, device="cuda")).mean()
            if loss > 0:
                print("positive")
        """)


def test_a_gpu_value_deciding_an_if_in_an_evaluation_is_answered_and_listed(tmp_path, capsys):
    # minGPT's adder: after a no-grad forward, each answer's correctness decides what is printed.
    tracker = _run_fake(tmp_path, """
        import torch
        model = torch.nn.Linear(4, 3).cuda()
        model.eval()
        with torch.no_grad():
            correct = model(torch.randn(5, 4, device="cuda")).argmax(1) == 0
        wrong = [i for i in range(5) if not correct[i]]
        on_host = correct.cpu()                       # read at host speed: a real tensor of zeros
        print(len(wrong), type(on_host) is torch.Tensor, sum(int(v) for v in on_host))
    """)
    assert capsys.readouterr().out.split() == ["5", "True", "0"]
    assert [(u.kind, u.count, u.answer) for u in tracker.record.scalar_uses.values()] == \
        [(scalars.EVAL_TRUTH, 5, False), (scalars.EVAL_COPY, 1, 0)]


def test_an_evaluation_whose_shapes_alternate_is_bounded_per_shape(tmp_path):
    # A generation loop: one forward per new token, the sequence one longer each time, per batch.
    tracker = _run_fake(tmp_path, """
        import torch
        model = torch.nn.Linear(8, 8).cuda()
        model.eval()
        with torch.no_grad():
            for batch in range(10):
                for length in (4, 5, 6):
                    model(torch.randn(2, length, 8, device="cuda"))
    """)
    assert (tracker.record.eval_forwards, tracker.record.eval_skipped) == (9, 21)


def test_torch_save_of_fake_tensors_writes_nothing_and_is_listed(tmp_path):
    tracker = _run_fake(tmp_path, f"""
        import torch
        model = torch.nn.Linear(4, 3).cuda()
        torch.save(model.state_dict(), {str(tmp_path / "fake.pt")!r})
        torch.save({{"epoch": 1, "model": model}}, {str(tmp_path / "whole.pt")!r})
        torch.save({{"epoch": 1}}, {str(tmp_path / "real.pt")!r})
    """)
    assert sorted(p.name for p in tmp_path.glob("*.pt")) == ["real.pt"]
    assert [(u.kind, u.count) for u in tracker.record.scalar_uses.values()] == [(scalars.SAVE, 1), (scalars.SAVE, 1)]


def test_host_values_are_real_and_gpu_values_are_listed(tmp_path, capsys):
    tracker = _run_fake(tmp_path, """
        import torch
        torch.manual_seed(0)
        n = torch.randint(10, 20, (1,)).item()
        mask = torch.arange(n) % 2 == 0
        kept = torch.arange(n)[mask]                  # data-dependent shape, on real host data
        losses = torch.zeros(3)
        losses[0] = 6.0
        gpu = torch.nn.Linear(3, 1).cuda()(torch.ones(1, 3, device="cuda")).sum()   # computed by a model: no data
        print(n, kept.numel(), float(losses.mean()), f"{gpu:.2f}", int(gpu.item()))
    """)
    torch.manual_seed(0)
    n = torch.randint(10, 20, (1,)).item()
    assert capsys.readouterr().out.split() == [str(n), str((n + 1) // 2), "2.0", "1.00", "1"]
    kinds = sorted((u.kind, u.count) for u in tracker.record.scalar_uses.values())
    assert kinds == [("format", 1), ("value", 1)]


# The device-generic start of pytorch/examples' ImageNet script, and the torch.cuda queries
# of training scripts that size themselves from the GPU they find.
DEVICE_QUERIES = """
    import torch
    if torch.accelerator.is_available():
        device = torch.accelerator.current_accelerator()
        torch.accelerator.set_device_index(0)
    else:
        device = torch.device("cpu")
    with torch.accelerator.device_index(0):
        model = torch.nn.Linear(64, 64).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    with torch.cuda.stream(torch.cuda.Stream()):
        model(torch.randn(8, 64, device=device)).sum().backward()
    opt.step()
    end.record()
    torch.accelerator.synchronize()
    found = (device.type, torch.accelerator.device_count(), torch.cuda.device_count(),
             torch.cuda.get_device_properties(0).total_memory, torch.accelerator.memory_allocated() > 0,
             torch.cuda.memory_stats()["allocated_bytes.all.peak"] > 0, start.elapsed_time(end))
"""


@pytest.mark.parametrize("cuda_build", [False, True])
def test_accelerator_and_cuda_queries_answer_as_the_gpu(tmp_path, monkeypatch, cuda_build):
    if cuda_build:
        # A CUDA build of torch with no visible GPU: what reaches the runtime fails. Simulated on
        # the CPU build: the fake GPU must answer without calling any of these.
        def no_device(*args, **kwargs):
            raise RuntimeError("CUDA error: no CUDA-capable device is detected")

        monkeypatch.setattr(torch.backends.cuda, "is_built", lambda: True)
        for name in dir(torch._C):
            if name.startswith("_accelerator_"):
                monkeypatch.setattr(torch._C, name, no_device)
        monkeypatch.setattr(torch._C, "_cuda_getDeviceCount", no_device, raising=False)
    path = tmp_path / "prog.py"
    path.write_text(textwrap.dedent(DEVICE_QUERIES))
    original = torch.accelerator.set_device_index, torch.cuda.Event
    with FakeGPU(StepTracker(), "NVIDIA A100-SXM4-40GB", 40 << 30):
        found = runpy.run_path(str(path))["found"]
    assert found == ("cuda", 1, 1, 40 << 30, True, True, 0.0)
    assert (torch.accelerator.set_device_index, torch.cuda.Event) == original  # restored


FACTORIES = '''
import torch
from torch.nn import functional as F

class Net(torch.nn.Module):
    def __init__(self, with_loss=True):
        super().__init__()
        self.body = torch.nn.Linear(64, 512)
        self.with_loss = with_loss

    def forward(self, x, y):
        logits = self.body(x)
        return (logits, F.cross_entropy(logits, y)) if self.with_loss else logits

def parts(with_loss=True):
    model = Net(with_loss).cuda()
    batch = (torch.randn(32, 64, device="cuda"), torch.randint(0, 512, (32,), device="cuda"))
    return model, torch.optim.SGD(model.parameters(), lr=0.1), batch

def pair():                       # nanoGPT's (logits, loss)
    return parts()

def explicit():
    return (*parts(), lambda out, batch: out[1])

def logits_only():
    return parts(False)

def bad_loss_fn():
    return (*parts(False), lambda out, batch: out)
'''


@pytest.fixture
def factories(tmp_path, monkeypatch):
    name = f"factories_{abs(hash(str(tmp_path))) % 10**8}"
    (tmp_path / f"{name}.py").write_text(FACTORIES)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield name
    sys.modules.pop(name, None)


def test_factory_contract_finds_the_loss_of_a_tuple(factories):
    from memlint.estimate import predict

    pair = predict.predict_factory(f"{factories}:pair", eval_step=False)
    explicit = predict.predict_factory(f"{factories}:explicit", eval_step=False)
    # The loss is cross_entropy's, not logits.sum(): its log-probabilities (32 x 512 fp32) are kept.
    assert pair["phases"] == explicit["phases"] and pair["peak_allocated"] == explicit["peak_allocated"]
    assert pair["steps_run"] == 2 and not pair["stopped"]


@pytest.mark.parametrize("factory, message", [
    ("logits_only", "the model returned a tensor of shape (32, 512), in which no loss can be found"),
    ("bad_loss_fn", "loss_fn(out, batch) returned a tensor of shape (32, 512), not a one-element"),
])
def test_factory_contract_refuses_to_guess(factories, factory, message):
    from click.testing import CliRunner

    from memlint.cli import main

    outcome = CliRunner().invoke(main, ["estimate", f"{factories}:{factory}"])
    assert outcome.exit_code == 2 and message in outcome.output and outcome.output.count("\n") == 1


def test_the_factory_contract_is_in_the_help():
    from click.testing import CliRunner

    from memlint.cli import main

    text = CliRunner().invoke(main, ["estimate", "--help"]).output
    assert "loss = loss_fn(out, batch)" in text and "(logits, loss)" in text and "not a guess" in text


SANITY = '''
import torch

def empty_batch():                 # the batch a slice bound of 1 made: (64, 0)
    model = torch.nn.Sequential(torch.nn.Embedding(100, 64), torch.nn.Linear(64, 100)).cuda()
    return (model, torch.optim.AdamW(model.parameters()), torch.randint(0, 100, (64, 0), device="cuda"),
            lambda out, batch: out.float().mean())

class Weights(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.zeros(2048, 2048))

    def forward(self, x):
        return self.w.sum() + x.sum()   # keeps nothing for backward: not a real forward

def no_activations():
    model = Weights().cuda()
    return model, torch.optim.SGD(model.parameters(), lr=0.1), torch.zeros(4, device="cuda")
'''


@pytest.mark.parametrize("factory, why", [
    ("empty_batch", "refused: the model was called with an input of shape (64, 0) at "),
    ("no_activations", "refused: the training forward kept 0.001 MiB of activations for 16.0 MiB of parameters"),
])
def test_implausible_runs_are_refused(tmp_path, monkeypatch, factory, why):
    from click.testing import CliRunner

    from memlint.cli import main

    name = f"sanity_{abs(hash(str(tmp_path))) % 10**8}"
    (tmp_path / f"{name}.py").write_text(SANITY)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        outcome = CliRunner().invoke(main, ["estimate", f"{name}:{factory}", "--gpu", "h100"])
    finally:
        sys.modules.pop(name, None)
    assert outcome.exit_code == 2, outcome.output
    last = outcome.output.splitlines()[-1]
    assert last.startswith(why) and "fits" not in outcome.output


def test_plot_option_writes_the_picture_or_says_why_not(factories, tmp_path):
    pytest.importorskip("matplotlib")
    from click.testing import CliRunner

    from memlint.cli import main

    picture = tmp_path / "fit.png"
    outcome = CliRunner().invoke(main, ["estimate", f"{factories}:pair", "--budget", "1GiB", "--plot", str(picture)])
    assert outcome.exit_code == 0, outcome.output
    assert picture.read_bytes()[:4] == b"\x89PNG"
    outcome = CliRunner().invoke(main, ["estimate", f"{factories}:pair", "--plot", str(tmp_path / "no" / "x.png")])
    assert outcome.exit_code == 2 and outcome.output == f"memlint estimate: cannot write {tmp_path / 'no' / 'x.png'}: no such folder\n"


def test_a_wrapped_failure_names_its_cause():
    from memlint.estimate import predict

    try:
        try:
            raise RuntimeError("Cannot swap t2 because it has weakref associated with it")
        except RuntimeError as inner:
            raise RuntimeError("_apply(): Couldn't swap Linear.weight") from inner
    except RuntimeError as exc:
        line = predict.why(exc)
    assert line.endswith("cannot run fake: RuntimeError: _apply(): Couldn't swap Linear.weight (because "
                         "RuntimeError: Cannot swap t2 because it has weakref associated with it)")


def test_snapshot_loads_in_memory_viz_and_replays_to_the_prediction(factories, tmp_path):
    import pickle

    from torch.cuda import _memory_viz

    from memlint.estimate import predict

    path = tmp_path / "snapshot.pickle"
    result = predict.predict_factory(f"{factories}:pair", snapshot_file=str(path))
    data = pickle.loads(path.read_bytes())
    assert "total_reserved" in _memory_viz.segsum(data) and "<html" in _memory_viz.trace_plot(data).lower()
    assert sum(s["total_size"] for s in data["segments"]) == result["peak_reserved"]
    live, peak = 0, 0
    for event in data["device_traces"][0]:
        live += {"alloc": event["size"], "free_completed": -event["size"]}.get(event["action"], 0)
        peak = max(peak, live)
    assert peak == max(result["peak_allocated"], result["eval_peak"] or 0)
    names = {f["name"] for e in data["device_traces"][0] for f in e["frames"]}
    assert "step 1 forward: activations" in names and "cuBLAS workspace (assumed)" in names


def test_an_evaluation_loop_through_a_frozen_encoder_is_bounded_too(tmp_path):
    tracker = _run_fake(tmp_path, """
        import torch
        encoder = torch.nn.Linear(32, 32).cuda().requires_grad_(False)   # frozen: not an evaluation
        model = torch.nn.Linear(32, 4).cuda()
        with torch.no_grad():
            for _ in range(50):
                model(encoder(torch.randn(8, 32).cuda()))
        model(encoder(torch.randn(8, 32).cuda())).sum().backward()
        with torch.no_grad():
            model(torch.randn(8, 32).cuda())                               # a new loop after training
    """)
    assert (tracker.record.eval_forwards, tracker.record.eval_skipped) == (4, 47)


def test_a_gan_trains_its_two_models_in_turn(tmp_path):
    # DCGAN's loop: D on real data, G's forward, D on G's detached output (the root's second forward
    # without an optimizer step drops the module statistics, G's among them), then D's backward.
    tracker = _run_fake(tmp_path, """
        import torch, torch.nn as nn
        G = nn.Sequential(nn.ConvTranspose2d(8, 4, 4), nn.ReLU(), nn.ConvTranspose2d(4, 1, 4)).cuda()
        D = nn.Sequential(nn.Conv2d(1, 4, 3), nn.Flatten(), nn.Linear(4 * 5 * 5, 1)).cuda()
        opt_d, opt_g = torch.optim.Adam(D.parameters()), torch.optim.Adam(G.parameters())
        for _ in range(2):
            D.zero_grad()
            D(torch.randn(2, 1, 7, 7, device="cuda")).mean().backward()
            fake = G(torch.randn(2, 8, 1, 1, device="cuda"))
            D(fake.detach()).mean().backward()
            opt_d.step()
            G.zero_grad()
            D(fake).mean().backward()
            opt_g.step()
    """)
    assert tracker.record.steps == 4


def test_a_data_set_held_as_one_large_host_tensor_is_read_one_real_sample_at_a_time(tmp_path):
    # torchvision's MNIST: the whole file as one tensor (here 2M bytes, above the host limit), viewed,
    # indexed per sample and handed to PIL through .numpy(): views compute nothing, so they stay real.
    tracker = _run_fake(tmp_path, """
        import numpy as np, torch
        raw = np.full(2000 * 32 * 32, 7, dtype=np.uint8)
        data = torch.from_numpy(raw).view(2000, 32, 32)
        sample = data[5].numpy()
        assert sample.shape == (32, 32) and sample[0, 0] == 7
        model = torch.nn.Linear(32 * 32, 10).cuda()
        opt = torch.optim.SGD(model.parameters())
        for i in range(2):
            x = torch.stack([torch.from_numpy(data[j].numpy()).float().flatten() for j in range(4)]).cuda()
            model(x).sum().backward()
            opt.step()
    """)
    assert tracker.record.steps == 2


def test_a_sampler_over_a_large_data_set_draws_real_indices(tmp_path):
    # ImageNet's 1.3 million samples: RandomSampler's permutation is above the host limit of other
    # tensors. Fake, `.tolist()` would read each index as a placeholder (all 1) a million times over.
    tracker = _run_fake(tmp_path, """
        import torch
        from torch.utils.data import DataLoader, Dataset

        class Numbers(Dataset):
            def __len__(self):
                return 1_300_000
            def __getitem__(self, i):
                return torch.full((4,), float(i))

        seen = []
        model = torch.nn.Linear(4, 1).cuda()
        opt = torch.optim.SGD(model.parameters())
        for i, batch in enumerate(DataLoader(Numbers(), batch_size=8, shuffle=True)):
            seen.extend(int(v) for v in batch[:, 0])
            model(batch.cuda()).sum().backward()
            opt.step()
            if i == 1:
                break
        assert len(set(seen)) == 16, seen
    """)
    assert tracker.record.steps == 2 and not tracker.record.scalar_uses


def test_data_parallel_on_the_one_gpu(tmp_path):
    # pytorch/examples' ImageNet script wraps the model in nn.DataParallel, which scatters each
    # input with a CUDA-build-only call; on one GPU the input itself reaches the module.
    tracker = _run_fake(tmp_path, """
        import torch
        model = torch.nn.DataParallel(torch.nn.Linear(256, 256)).cuda()
        opt = torch.optim.SGD(model.parameters())
        for _ in range(2):
            model(torch.randn(64, 256).cuda()).sum().backward()
            opt.step()
    """)
    assert tracker.record.steps == 2
    assert tracker._peak_mem[torch.device("cuda", 0)] >= 2 * 256 * 256 * 4 + 2 * 64 * 256 * 4


GENERATE = """
    import torch, torch.nn as nn
    V, D, BLOCK = 50, 32, 16

    class LM(nn.Module):
        def __init__(self):
            super().__init__()
            self.emb, self.pos, self.mix, self.head = nn.Embedding(V, D), nn.Embedding(BLOCK, D), nn.Linear(D, D), nn.Linear(D, V)

        def forward(self, idx):
            x = self.emb(idx) + self.pos(torch.arange(idx.shape[1], device=idx.device))
            return self.head(torch.relu(self.mix(x)))

    model = LM().cuda()
    opt = torch.optim.AdamW(model.parameters())
    x = torch.randint(0, V, (4, BLOCK), device="cuda")
    torch.nn.functional.cross_entropy(model(x).flatten(0, 1), x.flatten()).backward()
    opt.step()
    model.eval()
    with torch.no_grad():
        idx = torch.zeros((64, 1), dtype=torch.long, device="cuda")  # more rows than training: its peak
        for _ in range(40):                                  # minGPT's generate, cropped at BLOCK
            cond = idx if idx.size(1) <= BLOCK else idx[:, -BLOCK:]
            logits = model(cond)
            assert logits.shape == (64, cond.size(1), V), logits.shape
            idx = torch.cat((idx, torch.multinomial(torch.softmax(logits[:, -1, :], dim=-1), 1)), dim=1)
    assert idx.shape == (64, 41)
"""


def test_a_generation_loop_is_bounded_and_keeps_its_peak(tmp_path, monkeypatch):
    # Each forward of a generation loop is one position longer: after EVAL_BATCHES of them the next
    # ones answer the last output lengthened (the program's own shape checks hold), and the length
    # that repeats once the input is cropped runs again, so the evaluation's peak is the full loop's.
    from memlint.estimate import fakegpu

    bounded = _run_fake(tmp_path, GENERATE)
    assert (bounded.record.eval_forwards, bounded.record.eval_skipped) == (7, 33)
    gpu = torch.device("cuda", 0)
    with monkeypatch.context() as patched:  # bounded by shape only: every length runs until the crop
        patched.setattr(fakegpu, "_grown_by_one", lambda before, after: None)
        by_shape = _run_fake(tmp_path, GENERATE)
    # The same peak, within one 512-byte block (the host-side ids and samples held at that moment).
    assert by_shape.record.eval_forwards == 18 and abs(by_shape._peak_mem[gpu] - bounded._peak_mem[gpu]) <= 512
    monkeypatch.setattr(fakegpu, "EVAL_BATCHES", 1000)
    full = _run_fake(tmp_path, GENERATE)
    # Unbounded, the last forwards also see the generated ids grown longer (64 x 41 int64).
    assert full.record.eval_forwards == 40 and full._peak_mem[gpu] == pytest.approx(bounded._peak_mem[gpu], rel=0.02)


ACCUMULATE = """
    import torch, torch.nn as nn
    model = nn.Sequential(nn.Linear(64, 256), nn.GELU(), nn.Linear(256, 10)).cuda()
    opt = torch.optim.AdamW(model.parameters())
    triplet = nn.Linear(64, 64).cuda()
    for step in range(2):
        for micro in range(6):                      # nanoGPT's gradient accumulation
            loss = model(torch.randn(32, 64, device="cuda")).logsumexp(-1).mean() / 6
            loss.backward()
        a, p, n = (triplet(torch.randn(32, 64, device="cuda")) for _ in range(3))  # three forwards, one backward
        (a - p).sum().add((a - n).sum()).backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
"""


def test_gradient_accumulation_micro_steps_are_answered_from_the_second(tmp_path, monkeypatch):
    from memlint.estimate import fakegpu

    bounded = _run_fake(tmp_path, ACCUMULATE)
    # 4 of the 6 micro-steps of each step; never the triplet's forwards, whose backward comes after all three.
    assert bounded.record.micro_steps_answered == 8 and bounded.record.steps == 2
    monkeypatch.setattr(fakegpu._Accumulation, "answer", lambda self, module, shapes: None)
    full = _run_fake(tmp_path, ACCUMULATE)
    gpu = torch.device("cuda", 0)
    # The same peak within one 512-byte block (a scalar the answered micro-steps' graphs do not hold).
    assert full.record.micro_steps_answered == 0 and abs(full._peak_mem[gpu] - bounded._peak_mem[gpu]) <= 512


KEPT_LOSS = """
    import torch, torch.nn as nn
    class Model(nn.Module):                         # llama2.c's Transformer: the loss kept on the model
        def __init__(self):
            super().__init__()
            self.net = nn.Sequential(nn.Linear(64, 256), nn.GELU(), nn.Linear(256, 10))
            self.last_loss = None
        def forward(self, x, targets=None):
            logits = self.net(x)
            if targets is not None:
                self.last_loss = nn.functional.cross_entropy(logits, targets)
            return logits
    model = Model().cuda()
    opt = torch.optim.AdamW(model.parameters())
    for step in range(2):
        for micro in range(4):
            logits = model(torch.randn(32, 64, device="cuda"), torch.randint(10, (32,), device="cuda"))
            loss = model.last_loss / 4              # the loss the program differentiates is not the output
            loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
"""


def test_an_answered_micro_step_answers_what_the_forward_keeps_on_the_module(tmp_path, monkeypatch):
    # The answer replaces the model's last_loss too: the previous micro-step's, whose graph the program
    # already differentiated, would stop the run ("Trying to backward through the graph a second time").
    from memlint.estimate import fakegpu

    bounded = _run_fake(tmp_path, KEPT_LOSS)
    assert bounded.record.micro_steps_answered == 4 and bounded.record.steps == 2
    monkeypatch.setattr(fakegpu._Accumulation, "answer", lambda self, module, shapes: None)
    full = _run_fake(tmp_path, KEPT_LOSS)
    gpu = torch.device("cuda", 0)
    assert full.record.micro_steps_answered == 0 and abs(full._peak_mem[gpu] - bounded._peak_mem[gpu]) <= 512


def test_torch_compile_runs_as_eager_code_and_the_run_records_where(tmp_path):
    tracker = _run_fake(tmp_path, """
        import torch
        model = torch.compile(torch.nn.Linear(64, 64).cuda())
        model(torch.randn(8, 64, device="cuda")).sum().backward()
    """)
    assert [site.rsplit(":", 1)[1] for site in tracker.record.compiled] == ["3"]


def test_legacy_cuda_tensor_types_make_gpu_tensors(tmp_path, capsys):
    # PyTorch-GAN's scripts: `Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor`.
    tracker = _run_fake(tmp_path, """
        import numpy as np, torch
        Tensor = torch.cuda.FloatTensor if torch.cuda.is_available() else torch.FloatTensor
        x = torch.randn(4, 3).type(Tensor)
        valid = Tensor(np.ones((4, 1)))
        fake = Tensor(4, 1).fill_(0.0)
        print(x.is_cuda, valid.is_cuda, valid.dtype, tuple(fake.shape), isinstance(x, Tensor), x.type())
    """)
    assert capsys.readouterr().out.split() == ["True", "True", "torch.float32", "(4,", "1)", "True",
                                               "torch.cuda.FloatTensor"]
    assert tracker._peak_mem[torch.device("cuda", 0)] == 3 * 512  # three tensors on the GPU, 512 B blocks
    assert type(torch.cuda.FloatTensor).__name__ == "tensortype"  # the real type is back after the run


def test_a_gradient_penalty_through_autograd_grad_on_a_leaf_input_trains(tmp_path, capsys):
    # WGAN-GP: the critic called on a leaf that requires grad, differentiated with create_graph.
    tracker = _run_fake(tmp_path, """
        import torch
        critic = torch.nn.Sequential(torch.nn.Linear(64, 32), torch.nn.LeakyReLU(0.2), torch.nn.Linear(32, 1)).cuda()
        opt = torch.optim.Adam(critic.parameters())
        for _ in range(2):
            x = torch.randn(16, 64, device="cuda").requires_grad_(True)
            out = critic(x)
            grad, = torch.autograd.grad(out, x, torch.ones_like(out), create_graph=True, retain_graph=True)
            loss = out.mean() + ((grad.norm(2, dim=1) - 1) ** 2).mean()
            loss.backward()
            opt.step()
        print(all(p.grad is not None for p in critic.parameters()))
    """)
    assert capsys.readouterr().out.split() == ["True"]
    assert tracker.record.steps == 2


MASK_WRITE_BACK = """
    import torch
    points = torch.nn.Linear(3, 3).cuda()(torch.randn(8, 256, 3, device="cuda"))
    dist = (points ** 2).sum(-1)
    group = torch.arange(256, device="cuda").repeat(8, 1)
    first = group[:, :1].repeat(1, 256)
    mask = dist > 1.0
    group[mask] = first[mask]      # farthest-point sampling's groups: the selection goes back through its mask
    {after}
"""


def test_a_selection_by_a_mask_without_values_written_back_through_it_takes_every_element(tmp_path):
    tracker = _run_fake(tmp_path, MASK_WRITE_BACK.format(after="print(group.shape)"))
    uses = [u for u in tracker.record.scalar_uses.values() if u.kind == scalars.MASK_WRITE]
    assert uses and uses[0].site.endswith("prog.py:8")
    # first[mask] as if every element were selected: 8 x 256 int64 (16 KiB) beside the rest
    assert tracker._peak_mem[torch.device("cuda", 0)] >= 8 * 256 * 8 * 3


def test_a_selection_by_a_mask_without_values_used_otherwise_is_refused(tmp_path):
    from torch._subclasses.fake_tensor import DynamicOutputShapeException

    with pytest.raises(DynamicOutputShapeException):
        _run_fake(tmp_path, MASK_WRITE_BACK.format(after="print(first[mask].float().mean())"))


def test_a_data_sets_batch_is_made_on_the_host_and_one_that_reaches_for_the_gpu_still_works(tmp_path, capsys):
    tracker = _run_fake(tmp_path, """
        import torch
        from torch.utils.data import DataLoader, Dataset

        class Samples(Dataset):
            def __len__(self):
                return 64
            def __getitem__(self, i):
                return (torch.full((8,), float(i)) - 1) / 2, i

        class OnTheGpu(Samples):
            def __getitem__(self, i):
                return torch.ones(8).cuda() * i, i

        x, y = next(iter(DataLoader(Samples(), batch_size=16)))
        g, _ = next(iter(DataLoader(OnTheGpu(), batch_size=16)))
        print(type(x).__name__, float(x[3, 0]), int(y[5]), g.is_cuda, tuple(g.shape))
    """)
    assert capsys.readouterr().out.split() == ["Tensor", "1.0", "5", "True", "(16,", "8)"]
    assert tracker._peak_mem[torch.device("cuda", 0)] >= 16 * 8 * 4  # the second batch, stacked on the GPU


def test_small_host_factories_are_real_and_a_gpu_one_is_not(tmp_path, capsys):
    _run_fake(tmp_path, """
        import torch
        made = [torch.tensor([1, 2, 3]), torch.randint(10, size=(1,)), torch.randint(0, 5, (3,)), torch.zeros(2, 3),
                torch.randint(10, (1,), device="cuda"), torch.zeros(2000, 1000)]
        print(*[type(t).__name__ for t in made], made[4].is_cuda)
    """)
    assert capsys.readouterr().out.split() == ["Tensor"] * 4 + ["FakeTensor", "FakeTensor", "True"]
