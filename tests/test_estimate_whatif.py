"""`memlint estimate --dtype` and `--checkpointing`: which blocks are checkpointed, and the
predictions against the same model checkpointed by hand, autocast written by hand, and a real
CPU run of the same steps."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from samples import importable_module

from memlint.cli import main

torch = pytest.importorskip("torch")

from memlint.estimate import predict  # noqa: E402
from memlint.estimate.summary import workspace_for  # noqa: E402
from memlint.estimate.tracker import StepTracker  # noqa: E402
from memlint.estimate.whatif import repeated_blocks  # noqa: E402

MODEL = '''
import torch, torch.nn as nn
import torch.utils.checkpoint as cp

D, T, B, L = 128, 64, 8, 3

class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln = nn.LayerNorm(D)
        self.attn = nn.MultiheadAttention(D, 4, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(D, 4 * D), nn.GELU(), nn.Linear(4 * D, D))

    def forward(self, x):
        h = self.ln(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.mlp(x)

class Net(nn.Module):
    def __init__(self, by_hand=False, amp=False):
        super().__init__()
        self.blocks = nn.ModuleList([Block() for _ in range(L)])
        self.head = nn.Linear(D, 10)
        self.by_hand, self.amp = by_hand, amp

    def forward(self, x):
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=self.amp):
            for block in self.blocks:
                x = cp.checkpoint(block, x, use_reentrant=False) if self.by_hand else block(x)
            return self.head(x).float().mean()

def make(by_hand=False, amp=False, device="cuda"):
    torch.manual_seed(0)
    model = Net(by_hand, amp).to(device)
    return model, torch.optim.AdamW(model.parameters(), foreach=False), torch.randn(B, T, D, device=device)

def plain():
    return make()

def by_hand():
    return make(by_hand=True)

def with_autocast():
    return make(amp=True)
'''


@pytest.fixture(scope="module")
def blocks_model(tmp_path_factory):
    """The model's module, one for the whole file: a prediction that several tests compare with is
    made once (`_predict`)."""
    with importable_module(tmp_path_factory.mktemp("whatif"), "whatif", MODEL) as name:
        yield name


_PREDICTIONS: dict[tuple, dict] = {}


def _predict(name: str, factory: str, **whatifs) -> dict:
    """The prediction for the factory and what-ifs, made once per module (the tests only read it)."""
    key = (name, factory, tuple(sorted(whatifs.items())))
    if key not in _PREDICTIONS:
        _PREDICTIONS[key] = predict.predict_factory(f"{name}:{factory}", eval_step=False, **whatifs)
    return _PREDICTIONS[key]


def test_repeated_blocks_are_the_most_common_composite_children_of_containers():
    nn = torch.nn

    class Residual(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv, self.norm = nn.Conv2d(4, 4, 3), nn.BatchNorm2d(4)

    class ResNet(nn.Module):  # torchvision's layout: a stem, then stages of residual blocks
        def __init__(self):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, 4, 3), nn.ReLU())
            self.layer1 = nn.Sequential(Residual(), Residual(), Residual())
            self.layer2 = nn.Sequential(Residual(), Residual())

    resnet = ResNet()
    assert repeated_blocks(resnet) == [*resnet.layer1.children(), *resnet.layer2.children()]
    # A Sequential of stages (timm's EfficientNet): the stages are alike by class, so they are the
    # blocks, and none is looked into further.
    stages = nn.Sequential(resnet.stem, resnet.layer1, resnet.layer2)
    assert repeated_blocks(stages) == list(stages.children())
    mlp = nn.Sequential(nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 4))  # leaves only: nothing to checkpoint
    assert repeated_blocks(mlp) == []
    mixed = nn.ModuleList([nn.Sequential(nn.Linear(4, 4)), Residual(), Residual()])
    assert repeated_blocks(mixed) == list(mixed.children())[1:]


def test_checkpointing_predicts_what_checkpointing_by_hand_holds(blocks_model):
    plain = _predict(blocks_model, "plain")
    whatif = _predict(blocks_model, "plain", checkpointing=True)
    by_hand = _predict(blocks_model, "by_hand")
    assert whatif["peak_allocated"] == by_hand["peak_allocated"] < plain["peak_allocated"]
    assert whatif["whatif"] == "--checkpointing" and whatif["whatif_note"] == "--checkpointing: 3 x Block checkpointed"
    # The saving is the blocks' activations: most of them (each block keeps only its input).
    saved = plain["peak_allocated"] - whatif["peak_allocated"]
    assert saved > 0.5 * plain["breakdown"]["activations"]


def test_checkpointing_matches_a_real_cpu_run_checkpointed_by_hand(blocks_model):
    module = __import__(blocks_model)
    model, opt, x = module.make(by_hand=True, device="cpu")
    tracker = StepTracker()
    tracker.track_external(model, opt, x)
    with tracker:
        tracker.start_training()
        for _ in range(2):
            model(x).backward()
            opt.step()
            opt.zero_grad(set_to_none=True)
    # Adam's step counters are host tensors beside a GPU; cuBLAS's workspace is the GPU's only.
    real = tracker._peak_mem[torch.device("cpu")] - sum(s["step"].nbytes for s in opt.state.values())
    whatif = _predict(blocks_model, "plain", checkpointing=True)
    # On CUDA, fp32 attention's memory-efficient kernel writes its output as (batch, length, heads, size),
    # so nn.MultiheadAttention copies it: the block being recomputed holds one (B, T, D) fp32 tensor the
    # CPU's kernel does not make. Within CUDA's 512-byte rounding of each tensor, which the CPU run lacks.
    copy = x.numel() * x.element_size()
    assert whatif["peak_allocated"] - workspace_for(whatif["gpu"], True, True) == pytest.approx(real + copy, rel=1e-3)
    plain = _predict(blocks_model, "plain")
    assert plain["peak_allocated"] - whatif["peak_allocated"] > 0.4 * real


def test_dtype_what_ifs(blocks_model):
    fp32 = _predict(blocks_model, "plain")
    bf16 = _predict(blocks_model, "plain", dtype="bf16")
    fp16 = _predict(blocks_model, "plain", dtype="fp16")
    by_hand = _predict(blocks_model, "with_autocast")
    # Mixed precision keeps fp32 weights and optimizer state and halves what the matmuls keep.
    assert bf16["breakdown"]["parameters"] == fp32["breakdown"]["parameters"]
    assert bf16["breakdown"]["optimizer state"] == fp32["breakdown"]["optimizer state"]
    assert 0.4 * fp32["breakdown"]["activations"] < bf16["breakdown"]["activations"] < 0.8 * fp32["breakdown"]["activations"]
    assert bf16["peak_allocated"] == fp16["peak_allocated"] == by_hand["peak_allocated"] < fp32["peak_allocated"]
    assert "autocast cast cache" in bf16["breakdown"] and "autocast cast cache" not in fp32["breakdown"]
    # fp32 turns the program's own autocast off.
    assert _predict(blocks_model, "with_autocast", dtype="fp32")["peak_allocated"] == fp32["peak_allocated"]


def test_what_ifs_on_the_command_line(blocks_model):
    done = CliRunner().invoke(main, ["estimate", f"{blocks_model}:plain", "--no-eval", "--dtype", "bf16",
                                     "--checkpointing"])
    assert done.exit_code == 0, done.output
    assert "what if --dtype bf16 --checkpointing)" in done.output.splitlines()[0]
    assert "note: --checkpointing: 3 x Block checkpointed" in done.output
    done = CliRunner().invoke(main, ["estimate", f"{blocks_model}:plain", "--dtype", "bf8"])
    assert done.exit_code == 2 and "'bf8' is not one of 'bf16', 'fp16', 'fp32'" in done.output
    done = CliRunner().invoke(main, ["estimate", "--format", "json", "--checkpointing", f"{blocks_model}:plain",
                                     "--no-eval"])
    assert json.loads(done.output)["whatif"] == "--checkpointing"
