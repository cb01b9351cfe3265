"""Find, fix, prove: honest statistics, fixes that remove the memory they
promise, and `memlint verify` proving a fix per finding (issue 17)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from memlint.cli import main
from memlint.verify import stats

MIB = 1024 * 1024
torch_needed = pytest.mark.skipif(
    __import__("importlib").util.find_spec("torch") is None, reason="needs torch (CI installs the CPU build)"
)


def verify_json(*args: str) -> list[dict]:
    result = CliRunner().invoke(main, ["verify", "--device", "cpu", "--format", "json", *args], catch_exceptions=False)
    return json.loads(result.stdout)


def write(tmp_path: Path, name: str, body: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(body))
    return path


# -- honest statistics ----------------------------------------------------------
def test_first_iteration_is_always_warm_up() -> None:
    assert [stats.warmup_for(n) for n in (0, 1, 2, 3, 6, 9, 30)] == [0, 1, 1, 1, 2, 3, 3]


def test_too_few_iterations_give_no_verdict() -> None:
    """A flat loop stopped after 2 iterations: its first step's allocations are no slope."""
    g = stats.growth([0, 24 * MIB, 24 * MIB])
    assert not g.conclusive and not g.leaks
    assert f"a verdict needs {stats.MIN_MEASURED}" in g.too_few()
    steady = [i * 10 * MIB for i in range(6)]  # 5 iterations, 1 of warm-up: 4 measured
    assert not stats.growth(steady).leaks
    assert stats.growth([i * 10 * MIB for i in range(8)]).leaks  # 7 iterations, 2 of warm-up, 5 measured


def test_one_off_first_step_is_not_a_slope() -> None:
    samples = [0, 24 * MIB] + [24 * MIB + (i % 2) * 4096 for i in range(10)]
    assert not stats.growth(samples).leaks


LEAK = """\
    import torch
    model = torch.nn.Linear(256, 1024)
    loader = [torch.randn(256, 256) for _ in range({n})]
    kept = []
    for x in loader:
        kept.append(model(x).pow(2).sum())
"""


@torch_needed
def test_two_iteration_run_is_inconclusive(tmp_path: Path) -> None:
    [item] = verify_json(str(write(tmp_path, "two.py", LEAK.format(n=2))))
    assert item["verdict"] == "inconclusive", item
    assert "a verdict needs 5" in item["note"]


@torch_needed
def test_flat_loop_with_a_first_step_allocation_is_not_confirmed(tmp_path: Path) -> None:
    body = """\
    # verify: flat
    import torch
    model = torch.nn.Linear(256, 256)
    opt = torch.optim.Adam(model.parameters())
    cache = []
    for step in range({n}):
        if not cache:
            cache.append(torch.zeros(6 * 1024 * 1024))  # 24 MiB, once
        loss = model(torch.randn(64, 256)).pow(2).sum()
        loss.backward()
        opt.step()
        opt.zero_grad()
    """
    [item] = verify_json("-n", "10", str(write(tmp_path, "flat.py", body.format(n=12))))
    assert item["verdict"] == "not_confirmed" and item["expectation_held"], item
    [item] = verify_json("-n", "10", str(write(tmp_path, "flat2.py", body.format(n=2))))
    assert item["verdict"] == "inconclusive" and not item["expectation_held"], item
