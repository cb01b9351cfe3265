"""`memlint estimate` on idioms of public training scripts that the fake run has to follow the
GPU's way: a frozen encoder run under no_grad inside every step (latent diffusion's VAE), a
parameter rebuilt through its own class (accelerate's checkpoint loading), a loss copied to
NumPy, embedding bags with sparse gradients (recommendation models)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

torch = pytest.importorskip("torch")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MIB = 1 << 20


def _estimate(tmp_path, source: str) -> dict:
    (tmp_path / "train.py").write_text(textwrap.dedent(source))
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run([sys.executable, "-m", "memlint", "estimate", "--format", "json", "--", sys.executable,
                           "train.py"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    data = json.loads(done.stdout)
    assert data["steps_run"] == 2 and not data["stopped"], data["stopped"]
    return data


# A small trained model and a frozen encoder whose no-grad forward makes a 256 MiB transient
# (1024 x 65536 float32), once per step (EVAL: before the step's forward) or once after the steps.
ENCODER = """
import torch, torch.nn as nn
encoder = nn.Sequential(nn.Linear(1024, 65536), nn.Linear(65536, 16)).cuda().eval()
model = nn.Sequential(nn.Linear(16, 1024), nn.ReLU(), nn.Linear(1024, 1)).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
def encode(x):
    with torch.no_grad():
        return encoder(x)
for step in range(2):
    x = torch.randn(1024, 1024, device="cuda")
    z = {inside}
    model(z).pow(2).mean().backward()
    opt.step()
    opt.zero_grad()
{after}
"""


def test_a_frozen_encoder_run_inside_each_step_is_in_the_peak(tmp_path):
    data = _estimate(tmp_path, ENCODER.format(inside="encode(x)", after=""))
    assert data["peak_allocated"] >= 256 * MIB + 256 * MIB  # its weights (256 MiB) and its output
    assert data["peak_phase"].startswith("eval before step ")


def test_an_evaluation_after_the_steps_stays_out_of_the_peak(tmp_path):
    data = _estimate(tmp_path, ENCODER.format(inside="torch.randn(1024, 16, device='cuda')", after="encode(x)"))
    assert data["peak_allocated"] < 256 * MIB + 256 * MIB
    assert data["peak_phase"].startswith("step ")


def test_a_parameter_rebuilt_through_its_own_class_runs_fake(tmp_path):
    # accelerate's set_module_tensor_to_device: `type(param)(value, requires_grad=...)`
    data = _estimate(tmp_path, """
        import torch, torch.nn as nn
        model = nn.Linear(1024, 1024)
        for name, param in list(model.named_parameters()):
            model._parameters[name] = type(param)(torch.ones(param.shape), requires_grad=param.requires_grad)
        model = model.cuda()
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for _ in range(2):
            model(torch.randn(8, 1024, device="cuda")).sum().backward()
            opt.step()
    """)
    assert data["breakdown"]["parameters"] >= 4 * MIB and data["breakdown"].get("gradients", 0) >= 4 * MIB


def test_a_loss_copied_to_numpy_is_answered_and_listed(tmp_path):
    data = _estimate(tmp_path, """
        import torch, torch.nn as nn
        model = nn.Linear(64, 1).cuda()
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        total = 0.0
        for _ in range(2):
            loss = model(torch.randn(8, 64, device="cuda")).pow(2).mean()
            total += loss.detach().cpu().numpy() * 8
            loss.backward()
            opt.step()
        print(f"{total:.3f}")
    """)
    uses = [u for u in data["scalar_uses"] if u["kind"] == "numpy"]
    assert uses and uses[0]["answer"] == 1.0 and uses[0]["site"].endswith("train.py:8")


def test_sparse_embedding_bag_gradients_hold_a_row_per_index(tmp_path):
    # CUDA's embedding bag backward: one gradient row per index looked up (not per table row), kept
    # in `.grad` until it is zeroed; here zeroed after the next forward, as DLRM does.
    data = _estimate(tmp_path, """
        import torch, torch.nn as nn
        table = nn.EmbeddingBag(1_000_000, 64, mode="sum", sparse=True).cuda()
        opt = torch.optim.SGD(table.parameters(), lr=0.1)
        for _ in range(2):
            indices = torch.randint(0, 1_000_000, (2048 * 50,))
            out = table(indices.cuda(), torch.arange(0, 2048 * 50, 50).cuda())
            opt.zero_grad()
            out.sum().backward()
            opt.step()
    """)
    rows = 2048 * 50 * 64 * 4
    assert rows <= data["breakdown"]["gradients"] < 2 * rows


MSE = """
import torch, torch.nn as nn, torch.nn.functional as F
model = nn.Linear(64, 4096).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
target = torch.randn(1024, 4096, device="cuda")
for _ in range(2):
    opt.zero_grad()
    loss = {scale}F.mse_loss(model(torch.randn(1024, 64, device="cuda")), target)
    loss.backward()
    opt.step()
"""


def test_an_mse_loss_held_in_a_variable_holds_a_buffer_of_its_inputs_size(tmp_path):
    # CUDA's mse_loss keeps a buffer of its inputs' size (1024 x 4096 float32: 16 MiB) as long as its
    # result lives: through backward when the loss is held in a variable; not when the result is
    # consumed at once (scaled), which leaves only the transient one.
    held = _estimate(tmp_path, MSE.format(scale=""))
    scaled = _estimate(tmp_path, MSE.format(scale="2 * "))
    assert held["peak_phase"].endswith("backward")
    assert abs(held["peak_allocated"] - scaled["peak_allocated"] - 16 * MIB) <= 4096
