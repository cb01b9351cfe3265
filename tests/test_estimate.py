"""`memlint estimate`: the fake run's categories against a real CPU run of the same
step, the allocator model, the gate's exit codes, and the one-line messages."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest
from click.testing import CliRunner

from memlint.cli import main
from memlint.estimate import allocator, sizes

torch = pytest.importorskip("torch")

from memlint.estimate import predict  # noqa: E402
from memlint.estimate.tracker import GPU, StepTracker  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

MLP = '''
import torch

def make(optimizer="adamw", amp=False, batch=64, set_to_none=True):
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(256, 1024), torch.nn.GELU(), torch.nn.LayerNorm(1024),
                                torch.nn.Linear(1024, 10)).to(dev)
    if optimizer == "adamw":
        opt = torch.optim.AdamW(model.parameters(), foreach=False)
    else:
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.randn(batch, 256, device=dev)
    y = torch.randint(0, 10, (batch,), device=dev)

    def step():
        with torch.autocast("cuda" if dev == "cuda" else "cpu", dtype=torch.bfloat16, enabled=amp):
            loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=set_to_none)
    return model, opt, step, (x, y)

def train():
    return make()[2]

def with_eval(amp):
    model, opt, step, (x, y) = make("sgd", batch=4)
    def evaluate():
        with torch.no_grad(), torch.autocast("cuda", dtype=torch.bfloat16, enabled=amp):
            model(x)
    return {"train": step, "eval": evaluate}

def fp32_eval():
    return with_eval(False)

def amp_eval():
    return with_eval(True)

def triple():
    model, opt, _, _ = make()
    return model, opt, torch.randn(64, 256, device=next(model.parameters()).device), lambda out, batch: out.sum()

def layers(foreach=None):
    # eight equal Linear layers, Adam: on the GPU the default (foreach) step takes every parameter's
    # temporaries at once
    model = torch.nn.Sequential(*[torch.nn.Linear(512, 512, bias=False) for _ in range(8)]).cuda()
    opt = torch.optim.Adam(model.parameters(), foreach=foreach)
    x = torch.randn(16, 512, device="cuda")
    def step():
        model(x).sum().backward()
        opt.step()
        opt.zero_grad()
    return step

def keyword_to():
    # Module.to with keywords (timm's benchmark script: device=, dtype=, memory_format=)
    model = torch.nn.Linear(1024, 1024)
    model.to(device=torch.device("cuda"), dtype=None, memory_format=None)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.randn(8, 1024, device="cuda")
    def step():
        model(x).sum().backward()
        opt.step()
        opt.zero_grad()
    return step

def layers_one_by_one():
    return layers(foreach=False)

def data_dependent():
    model, opt, step, _ = make()
    def bad():
        step()
        torch.nonzero(next(model.parameters()) > 0)
    return bad
'''


@pytest.fixture
def mlp(tmp_path, monkeypatch):
    name = f"mlp_{abs(hash(str(tmp_path))) % 10**8}"
    (tmp_path / f"{name}.py").write_text(MLP)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield name
    sys.modules.pop(name, None)


def _round(n: int) -> int:
    return -(-n // 512) * 512


def _real_cpu_run(module_name: str):
    """The same step on real CPU tensors, tracked by the same tracker (no fake GPU)."""
    module = __import__(module_name)
    model, opt, step, batch = module.make()
    tracker = StepTracker()
    tracker.track_external(model, opt, *batch)
    with tracker:
        tracker.start_training()
        step()
        step()
    return model, opt, tracker


def test_categories_match_a_real_cpu_run(mlp, monkeypatch):
    model, opt, real = _real_cpu_run(mlp)
    params = sum(_round(p.nbytes) for p in model.parameters())
    state = sum(_round(v.nbytes) for s in opt.state.values() for v in s.values() if v.dim() > 0)
    result = predict.predict_factory(f"{mlp}:triple", eval_step=False)
    at_peak = result["breakdown"]
    assert at_peak["parameters"] == params
    assert at_peak["gradients"] == params
    assert at_peak["optimizer state"] == state  # exp_avg, exp_avg_sq; Adam's step counters stay on the host
    assert result["steps_run"] == 2 and result["peak_phase"] == "step 1 optimizer step"


def test_peak_matches_a_real_cpu_run_of_the_same_step(mlp, monkeypatch):
    # Without CUDA's 512-byte rounding the fake GPU must see exactly the bytes the real run held.
    import torch.distributed._tools.mem_tracker as mem_tracker

    monkeypatch.setattr(mem_tracker, "_PYTORCH_MIN_ALLOCATE", 1)
    _, opt, real = _real_cpu_run(mlp)
    # Adam's step counters are host tensors on a GPU too (capturable=False): not on the fake GPU.
    host = sum(state["step"].nbytes for state in opt.state.values())
    real_peak = real._peak_mem[torch.device("cpu")] - host
    tracker = StepTracker()
    from memlint.estimate.fakegpu import FakeGPU

    with FakeGPU(tracker):
        step = __import__(mlp).make()[2]
        tracker.start_training()
        step()
        step()
    assert tracker._peak_mem[GPU] == real_peak


def test_autocast_cache_is_its_own_line_and_why_amp_can_take_more(mlp):
    fp32 = predict.predict_factory(f"{mlp}:fp32_eval")
    amp = predict.predict_factory(f"{mlp}:amp_eval")
    model = __import__(mlp).make("sgd")[0]
    linears = [p for m in model if isinstance(m, torch.nn.Linear) for p in m.parameters()]
    # Under no_grad too, autocast caches the bf16 copy of every Linear's weight and bias (they
    # require grad) until the region ends: at a small batch that outweighs halving activations.
    cache = sum(_round(p.numel() * 2) for p in linears)
    assert amp["eval_breakdown"]["autocast cast cache"] == cache
    assert "autocast cast cache" not in fp32["eval_breakdown"]
    assert amp["eval_peak"] - fp32["eval_peak"] > cache // 2


def test_optimizers_take_their_gpu_path(mlp):
    # Adam's multi-tensor step holds the square roots of every exp_avg_sq at once (the GPU's default);
    # asked for the per-parameter step (foreach=False), one layer's at a time.
    layer = 512 * 512 * 4
    temporaries = "optimizer-step temporaries"
    default = predict.predict_factory(f"{mlp}:layers", eval_step=False)["phase_breakdown"]["step 1 optimizer step"]
    assert default[temporaries] == 8 * layer
    one = predict.predict_factory(f"{mlp}:layers_one_by_one", eval_step=False)["phase_breakdown"]["step 1 optimizer step"]
    assert one[temporaries] == 3 * layer  # a few temporaries of one layer
    from torch._subclasses.fake_tensor import FakeTensor
    from torch.optim.optimizer import _foreach_supported_types

    assert FakeTensor not in _foreach_supported_types  # restored after the run


def test_module_to_with_a_device_keyword_places_the_parameters(mlp):
    result = predict.predict_factory(f"{mlp}:keyword_to", eval_step=False)
    assert result["breakdown"]["parameters"] == 1024 * 1024 * 4 + 1024 * 4


def test_cublas_workspaces_are_taken_at_their_first_matmul(mlp, tmp_path):
    from memlint.estimate.summary import summarize

    mib = 1 << 20
    # A 90 MiB forward tensor, freed before backward's first matmul: the backward handle's 32 MiB workspace
    # and the 50 MiB after it reuse its block; taken at the start instead, they would not.
    events = [(1, 1, 90 * mib, "Activation", 0), (-1, 1, 90 * mib, "Activation", 0), (1, 2, 50 * mib, "Temp", 0)]
    at_start = summarize(events, ["step 1 backward"], [], 64 * mib, {})
    placed = summarize(events, ["step 1 backward"], [], 64 * mib, {}, workspace_at=[1, 2])
    assert at_start["peak_reserved"] == (64 + 90) * mib and placed["peak_reserved"] == (32 + 90) * mib
    assert placed["breakdown"]["cuBLAS workspace (assumed)"] == 32 * mib  # the peak was before backward's
    # In a fake run each handle's workspace comes after its first matmul's output (forward, then backward).
    path = tmp_path / "snapshot.pickle"
    predict.predict_factory(f"{mlp}:train", eval_step=False, snapshot_file=str(path))
    import pickle

    with open(path, "rb") as handle:
        allocs = [e for e in pickle.load(handle)["device_traces"][0] if e["action"] == "alloc"]
    places = [i for i, e in enumerate(allocs) if e["frames"][0]["name"] == "cuBLAS workspace (assumed)"]
    assert len(places) == 2 and places[0] > 4 and all(allocs[i]["size"] == 32 * mib for i in places)


def test_the_device_the_program_sees():
    from memlint.estimate.fakegpu import FakeGPU

    tracker = StepTracker()
    with FakeGPU(tracker, "NVIDIA A100-SXM4-40GB", 40 * sizes.GIB):
        assert torch.cuda.is_available() and torch.cuda.get_device_name(0) == "NVIDIA A100-SXM4-40GB"
        x = torch.ones(4, device="cuda")
        host = torch.ones(1024)
        assert x.device == GPU and x.is_cuda and not host.is_cuda
        assert torch.zeros(3, device=x.device).is_cuda  # a device taken from a tensor
        assert not x.cpu().is_cuda and host.cuda().is_cuda and (x + 1).is_cuda
        assert torch.cuda.memory_allocated() == 2 * 512 * 3 or torch.cuda.memory_allocated() > 0
    assert not torch.cuda.is_available()


def test_one_line_when_the_program_cannot_run_fake(mlp):
    result = predict.predict_factory(f"{mlp}:data_dependent")
    assert result["stopped"].startswith(os.path.join(os.getcwd(), f"{mlp}.py:"))
    assert "cannot run fake: an output's shape depends on the data (aten.nonzero.default)" in result["stopped"]
    assert result["steps_run"] == 1  # what ran before it is kept


@pytest.mark.parametrize("args, code", [
    (["--budget", "1GiB"], 0),
    (["--budget", "20MiB"], 1),
    (["--gpu", "h100"], 0),
    (["--budget", "lots"], 2),
    (["--gpu", "abacus"], 2),
])
def test_gate_exit_codes(mlp, args, code):
    outcome = CliRunner().invoke(main, ["estimate", f"{mlp}:train", *args])
    assert outcome.exit_code == code, outcome.output
    if code == 1:
        assert "does NOT fit" in outcome.output and "over the 20.0 MiB budget" in outcome.output
    if code == 2:
        assert outcome.output.count("\n") == 1 and "Traceback" not in outcome.output


def test_formats(mlp):
    runner = CliRunner()
    data = json.loads(runner.invoke(main, ["estimate", f"{mlp}:train", "--format", "json", "--budget", "1GiB"]).output)
    assert data["fits"] is True and data["exit"] == 0 and data["peak_reserved"] >= data["peak_allocated"] > 0
    github = runner.invoke(main, ["estimate", f"{mlp}:train", "--format", "github", "--budget", "1MiB"]).output
    line = MLP.splitlines().index("def train():") + 1  # the factory: where the gate's annotation goes
    assert f"::error file={mlp}.py,line={line},title=memlint estimate::--budget 1MiB: does NOT fit" in github
    sarif = json.loads(runner.invoke(main, ["estimate", f"{mlp}:train", "--format", "sarif", "--budget", "1MiB"]).output)
    assert sarif["runs"][0]["results"][0]["ruleId"] == "MLE001"


def test_what_ifs_batch_size_and_optimizer(mlp):
    base = predict.predict_factory(f"{mlp}:triple", eval_step=False)
    bigger = predict.predict_factory(f"{mlp}:triple", eval_step=False, batch_size=512)
    sgd = predict.predict_factory(f"{mlp}:triple", eval_step=False, optimizer="sgd")
    assert base["breakdown"]["inputs (batch)"] == 64 * 256 * 4
    assert bigger["eval_breakdown"] == {} and bigger["whatif"] == "--batch-size 512"
    assert max(bigger["phases"].values()) > max(base["phases"].values())
    assert "optimizer state" in base["breakdown"] and "optimizer state" not in sgd["breakdown"]
    with pytest.raises(predict.CannotRunFake, match="--batch-size needs a factory"):
        predict.predict_factory(f"{mlp}:train", batch_size=8)


def test_no_target_is_an_error():
    outcome = CliRunner().invoke(main, ["estimate"])
    assert outcome.exit_code == 2 and "give module:function" in outcome.output


def test_allocator_model():
    model = allocator.replay([(1, 1, 100), (1, 2, 3 << 20), (-1, 1, 0), (1, 3, 600 << 10), (1, 4, 12 << 20),
                              (-1, 2, 0), (1, 5, 2 << 20)])
    # 2 MiB small segment + one 20 MiB large one; the 2 MiB request reuses the freed 3 MiB block
    # whole (the 1 MiB rest is not split off), so it counts 3 MiB allocated.
    assert model.peak_reserved == 22 << 20
    assert model.allocated == (600 << 10) + (12 << 20) + (3 << 20)
    assert allocator.round_size(1) == 512 and allocator.segment_size(11 << 20) == 12 << 20


def test_allocator_keeps_a_pool_per_stream():
    # A 12 MiB block freed on a side stream (an FSDP all-gather buffer) serves that stream again,
    # never the default one: the default stream's request takes a segment of its own.
    model = allocator.Allocator()
    model.malloc(1, 12 << 20, stream=1)
    model.free(1)
    model.malloc(2, 12 << 20)
    assert model.reserved == 24 << 20
    model.malloc(3, 12 << 20, stream=1)
    assert model.reserved == 24 << 20 and model.allocated == 24 << 20


SCRIPT = '''
import torch
from torch.utils.data import DataLoader, TensorDataset
device = "cuda" if torch.cuda.is_available() else "cpu"
loader = DataLoader(TensorDataset(torch.randn(256, 64), torch.randint(0, 4, (256,))), batch_size=32, num_workers=2)
model = torch.nn.Sequential(torch.nn.Linear(64, 256), torch.nn.ReLU(), torch.nn.Linear(256, 4)).to(device)
opt = torch.optim.Adam(model.parameters())
for x, y in loader:
    loss = torch.nn.functional.cross_entropy(model(x.to(device)), y.to(device))
    loss.backward()
    opt.step()
    opt.zero_grad()
    print("loss", loss.item())
    {extra}
'''


def _estimate_command(tmp_path, extra: str, *options: str) -> subprocess.CompletedProcess:
    (tmp_path / "train.py").write_text(textwrap.dedent(SCRIPT.replace("{extra}", extra)))
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "memlint", "estimate", *options, "--", sys.executable, "train.py"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)


def test_command_form_runs_the_unmodified_program(tmp_path):
    done = _estimate_command(tmp_path, "", "--format", "json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["steps_run"] == 2 and data["item_placeholders"] == 1
    assert data["item_site"].endswith("train.py:13")
    assert data["breakdown"]["parameters"] == _round(64 * 256 * 4) + _round(256 * 4) + _round(256 * 4 * 4) + 512


def test_command_form_one_line_for_data_access(tmp_path):
    done = _estimate_command(tmp_path, "print(model(x.to(device)).argmax(1).cpu().numpy())")
    # The first step ran, then the program stopped; no budget: nothing to gate, exit 0.
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[1] == (f"{tmp_path / 'train.py'}:14: cannot run fake: the program reads the tensor's data, "
                        "which a fake tensor does not have: .numpy() is not supported for tensor subclasses.")
    assert "Traceback" not in done.stdout + done.stderr


def test_calls_that_reach_cuda_on_a_cuda_build_with_no_visible_gpu(monkeypatch):
    """A CUDA build of torch (the pip wheel) on a machine whose GPU is absent or hidden: these calls
    go to the CUDA runtime and fail ("no CUDA-capable device is detected"). Simulated on a CPU build."""
    from memlint.estimate.fakegpu import FakeGPU

    def no_device(*args, **kwargs):
        raise RuntimeError("CUDA error: no CUDA-capable device is detected")

    monkeypatch.setattr(torch.backends.cuda, "is_built", lambda: True)
    monkeypatch.setattr(torch._C, "_cuda_clearCublasWorkspaces", no_device, raising=False)
    monkeypatch.setattr(torch.cuda.graphs, "_cuda_isCurrentStreamCapturing", no_device)
    with FakeGPU(StepTracker()):
        # Optimizer.step's graph-capture check (torch <= 2.11), as the optimizers run it:
        assert not (torch.backends.cuda.is_built() and torch.cuda.is_available()
                    and torch.cuda.is_current_stream_capturing())
        # Lightning's CUDAAccelerator.setup / teardown (lightning_fabric `_clear_cuda_memory`):
        if hasattr(torch._C, "_cuda_clearCublasWorkspaces"):
            torch._C._cuda_clearCublasWorkspaces()
        with torch.cuda.device(0):  # checkpointing's RNG stash
            torch.cuda.set_rng_state(torch.cuda.get_rng_state())
    with pytest.raises(RuntimeError, match="no CUDA-capable device"):
        torch._C._cuda_clearCublasWorkspaces()  # restored


@pytest.mark.parametrize("positional", [False, True])
def test_attention_dropout_keeps_what_cudas_fused_kernels_keep(positional):
    """CUDA's fused attention draws dropout inside the kernel: what a training forward keeps is the
    output and the logsumexp, not the B x H x L x L probabilities and mask of the CPU's math path."""
    from memlint.estimate.fakegpu import FakeGPU

    b, h, n, d = 2, 4, 256, 32
    with FakeGPU(StepTracker()):
        q = torch.randn(b, h, n, d, device="cuda", requires_grad=True)
        before = torch.cuda.memory_allocated()
        if positional:
            out = torch.nn.functional.scaled_dot_product_attention(q, q, q, None, 0.1, True)
        else:
            out = torch.nn.functional.scaled_dot_product_attention(q, q, q, dropout_p=0.1, is_causal=True)
        kept = torch.cuda.memory_allocated() - before
        assert out.requires_grad
    assert kept == _round(b * h * n * d * 4) + _round(b * h * n * 4)  # output + logsumexp (fp32)


def _kept_by(make, *shape) -> int:
    """Bytes the forward `make()` builds on the fake GPU leaves allocated (saved for backward, output)."""
    from memlint.estimate.fakegpu import FakeGPU

    with FakeGPU(StepTracker()):
        fn = make()
        x = torch.randn(*shape, device="cuda", requires_grad=True)
        before = torch.cuda.memory_allocated()
        out = fn(x)
        assert out.requires_grad
        return torch.cuda.memory_allocated() - before


def test_dropout_keeps_cudas_bool_mask():
    kept = _kept_by(lambda: lambda x: torch.nn.functional.dropout(x, 0.1), 64, 1024)
    assert kept == _round(64 * 1024 * 4) + _round(64 * 1024)  # output (fp32) + mask (bool), not an fp32 mask


def test_rules_apply_inside_torch_functions_written_in_python():
    # nn.MultiheadAttention runs F.multi_head_attention_forward (Python), which calls SDPA inside.
    def attention(dropout):
        def make():
            mha = torch.nn.MultiheadAttention(64, 4, dropout=dropout, batch_first=True).cuda()
            return lambda x: mha(x, x, x, need_weights=False)[0]
        return make

    assert _kept_by(attention(0.1), 4, 128, 64) == _kept_by(attention(0.0), 4, 128, 64)


@pytest.mark.parametrize("reentrant", [False, True])
@pytest.mark.parametrize("amp", [False, True])
def test_checkpoint_recomputes_with_the_same_rules(reentrant, amp):
    from torch.utils.checkpoint import checkpoint

    from memlint.estimate.fakegpu import FakeGPU

    def block(x):
        x = torch.nn.functional.scaled_dot_product_attention(x, x, x, dropout_p=0.1)
        return torch.nn.functional.dropout(x @ x.transpose(-1, -2), 0.1)

    with FakeGPU(StepTracker()):
        x = torch.randn(2, 4, 64, 16, device="cuda", requires_grad=True)
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=amp):
            out = checkpoint(block, x, use_reentrant=reentrant)
        out.float().sum().backward()  # the recomputed tensors match the saved ones
        assert x.grad.shape == x.shape and out.dtype == (torch.bfloat16 if amp else torch.float32)


def test_an_ops_tensors_are_found_in_pytrees_order():
    # The tracker reads each op's tensors without pytree's specs (its per-op cost), in the same order.
    from torch.utils._pytree import tree_flatten

    from memlint.estimate.tracker import tensor_leaves

    a, b, c, d = (torch.zeros(i + 1) for i in range(4))
    tree = ((a, [1, b, (c,)]), {"x": d, "y": 2.0}, None, torch.Size([3]))
    assert [id(t) for t in tensor_leaves(tree)] == \
        [id(t) for t in tree_flatten(tree)[0] if isinstance(t, torch.Tensor)] == [id(a), id(b), id(c), id(d)]


def test_module_peaks_are_those_of_a_visit_after_every_op():
    # The modules running are visited only when the total passes the lowest of their peaks; the peaks
    # must be those of a visit after every op: a module entered after a larger one freed its temporaries
    # peaks below that one's peak, in forward and in backward.
    from memlint.estimate.fakegpu import FakeGPU

    class EveryOp(StepTracker):
        def _update_peak_stats(self, peak_state) -> None:
            self._module_floor.clear()
            super()._update_peak_stats(peak_state)

    class Wide(torch.nn.Module):  # a temporary of n columns, freed before the module returns
        def __init__(self, n: int) -> None:
            super().__init__()
            self.inner = torch.nn.Linear(64, n)
            self.out = torch.nn.Linear(1, 64)

        def forward(self, x):
            return self.out(self.inner(x).sum(-1, keepdim=True))

    def peaks(tracker_type) -> list:
        tracker = tracker_type()
        with FakeGPU(tracker):
            torch.manual_seed(0)
            model = torch.nn.Sequential(Wide(4096), Wide(256), torch.nn.Sequential(Wide(1024), Wide(64))).cuda()
            opt = torch.optim.Adam(model.parameters())
            x = torch.randn(128, 64, device="cuda")
            tracker.start_training()
            seen = []
            for _ in range(2):
                loss = model(x).square().sum()
                seen.append(running(tracker))  # the forward's peaks
                loss.backward()
                seen.append(running(tracker))  # the backward's
                opt.step()
                opt.zero_grad()
        return seen, tracker._peak_mem[GPU]

    def running(tracker) -> dict:
        return {stats.mod_fqn: stats.local_peak[GPU] for stats in tracker.memory_tracking.values()}

    found, expected = peaks(StepTracker), peaks(EveryOp)
    assert found == expected and all(len(set(seen.values())) > 3 for seen in found[0])
