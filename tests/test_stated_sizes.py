"""The size a finding states: only where the code shows it, and what `memlint verify` measures.

The static half lints small programs; the measured half runs `memlint verify` (CPU torch, the
live-storage tracker, whose counts are exact multiples of 512 bytes: no timing, no noise) on
every runnable test case whose finding states a size, and checks that the stated size is within
a factor of two of the measured growth per iteration.
"""

from __future__ import annotations

import importlib.util
import json
import re
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from memlint.cli import main
from memlint.engine import lint_path, lint_source
from memlint.rules import ALL_RULES
from memlint.verify import cases

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "test_cases"
CODES = [r.code for r in ALL_RULES]
STATED = re.compile(r"about (\d+(?:\.\d+)?) (KiB|MiB|GiB)")
UNIT = {"KiB": 1 / 1024, "MiB": 1.0, "GiB": 1024.0}


def stated_mib(message: str) -> float | None:
    match = STATED.search(message)
    return float(match.group(1)) * UNIT[match.group(2)] if match else None


def findings(source: str, code: str) -> list:
    found, errors = lint_source(textwrap.dedent(source), "snippet.py", CODES)
    assert not errors, errors
    return [f for f in found if f.code == code]


EVAL = """
import torch
from torch import nn

device = "cuda" if torch.cuda.is_available() else "cpu"
batch = 256


def main():
    model = nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, {width})).to(device)
    val_loader = [(torch.randn(batch, 64), torch.randint(0, 10, (batch,))) for _ in range(30)]
    all_logits, all_labels = [], []
    with torch.no_grad():
        for x, y in val_loader:
            logits = model(x.to(device))
            all_logits.append(logits)
            all_labels.append(y.to(device))
    return all_logits, all_labels
"""


def test_each_store_states_its_own_size_and_severity_follows_it() -> None:
    logits, labels = findings(EVAL.format(width=1000), "ML005")
    assert "256×1000 float32 tensor" in logits.message and "about 1.0 MiB per batch" in logits.message
    assert logits.severity.value == "error"  # 1 MiB a batch: beyond what verify confirms (0.25 MiB)
    assert "256-element int64 tensor" in labels.message and "about 2.0 KiB per batch" in labels.message
    assert labels.severity.value == "warning"


def test_a_model_whose_shapes_do_not_chain_gets_no_number() -> None:
    (logits, _) = findings(EVAL.format(width=1000).replace("nn.Linear(256,", "nn.Linear(128,"), "ML005")
    assert stated_mib(logits.message) is None and "keeps a device tensor" in logits.message


BACKWARD = """
import torch


def train(model, loader, opt):
    losses = []
    for x, y in loader:
        loss = model(x)
        loss.backward({gradient})
        opt.step()
        losses.append(loss)
    return losses
"""


def test_backward_without_a_gradient_shows_a_one_element_loss() -> None:
    (finding,) = findings(BACKWARD.format(gradient=""), "ML001")
    assert "about 0.5 KiB of device memory per iteration" in finding.message
    assert finding.severity.value == "warning"


def test_without_grounds_the_message_names_what_is_kept_without_a_number() -> None:
    (finding,) = findings(BACKWARD.format(gradient="torch.ones_like(loss)"), "ML001")  # any shape backwards
    assert stated_mib(finding.message) is None
    # `loss = model(x)` backwarded with a gradient of its own shape: the whole output, of no stated size
    assert "holds a whole model output, whose tensors stay on the device" in finding.message


SHAPES = """
import torch
from torch import nn

N = 4096


def f(batch_size, loader, x):
    model = nn.Sequential(nn.Linear(64, 128), nn.GELU(), nn.Linear(128, 10)).cuda()
    batches = [(torch.randn(32, 64), torch.randint(0, 10, (32,))) for _ in range(8)]
    for i, (images, labels) in enumerate(batches):
        images = images.to("cuda")
        probe = {expr}
"""


@pytest.mark.parametrize(
    "expr, described, nbytes",
    [
        ("model(images)", "a 32×10 float32 tensor", 1536),  # 1280 bytes in 512-byte blocks
        ("model(images).argmax(dim=1)", "a 32-element int64 tensor", 512),
        ("model(images).half().softmax(-1)", "a 32×10 float16 tensor", 1024),
        ("labels * 2", "a 32-element int64 tensor", 512),
        ("torch.zeros(N, 3, dtype=torch.bfloat16)", "a 4096×3 bfloat16 tensor", 24576),
        ("torch.full((N,), 0.5)", "a 4096-element float32 tensor", 16384),
        ("images.to(torch.float64).mean()", "a 0-dim tensor", 512),
        ("labels / 2", None, None),  # int64 divided: float, of a dtype the code does not show
        ("torch.randn(batch_size, 64)", None, None),  # a parameter: whatever the caller passes
        ("model(x)", None, None),
        ("torch.full((N,), x)", None, None),
        ("images @ images", None, None),
    ],
)
def test_the_size_model_says_only_what_the_code_shows(expr: str, described: str | None, nbytes: int | None) -> None:
    import libcst as cst

    from memlint.analysis.model import SemanticModel

    text = textwrap.dedent(SHAPES.format(expr=expr))
    model = SemanticModel(cst.parse_module(text), "shapes.py", text=text)
    probe = next(n for n in model.tree.nodes if isinstance(n, cst.Assign) and getattr(n.targets[0].target, "value", "") == "probe")
    tensor = model.sizes.tensor(probe.value, probe)
    assert (tensor.describe() if tensor else None) == described
    assert (tensor.nbytes if tensor else None) == nbytes


# -- what verify measures -------------------------------------------------------------
def stated_findings() -> list[tuple[str, int, str, float]]:
    """(file, row, code, MiB per iteration) of every runnable test case's finding that states a size."""
    found = []
    for path in cases.discover(str(CASES)):
        for finding in lint_path(path, CODES).findings:
            mib = stated_mib(finding.message)
            if mib is not None:
                found.append((Path(path).resolve().relative_to(CASES).as_posix(), finding.location.row, finding.code, mib))
    return found


def test_the_stated_sizes_cover_both_kinds_of_kept_value() -> None:
    stated = stated_findings()
    assert {code for _, _, code, _ in stated} >= {"ML001", "ML005"}
    assert any(mib < 0.01 for *_, mib in stated) and any(mib >= 0.5 for *_, mib in stated)  # a skeleton, a batch


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="needs torch (CI installs the CPU build)")
def test_verify_measures_what_the_message_states() -> None:
    stated = stated_findings()
    files = sorted({str(CASES / name) for name, *_ in stated})
    result = CliRunner().invoke(
        main, ["verify", *files, "--device", "cpu", "--iterations", "20", "--jobs", "2", "--format", "json"],
        catch_exceptions=False,
    )
    measured = {
        (Path(item["filename"]).resolve().relative_to(CASES).as_posix(), item["location"]["row"], item["code"]): item
        for item in json.loads(result.stdout)
    }
    compared = 0
    for name, row, code, mib in stated:
        item = measured[(name, row, code)]
        if item["verdict"] in ("not_reached", "error"):
            continue  # a framework this machine lacks (Lightning): verify cannot run the hook
        slope = item["slope_mib_per_iter"]
        assert mib / 2 <= slope <= mib * 2, f"{name}:{row} {code} states {mib:.6f} MiB/iter, verify measured {slope:.6f}"
        compared += 1
    assert compared >= 8  # the plain-torch cases: a kept loss (512 bytes), logits, predictions and labels
