"""`memlint estimate --baseline REF`: the comparison with a base (a git ref checked out into a
temporary worktree, or a saved prediction), its gate and its CI formats."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from memlint.estimate import baseline

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MIB = 1 << 20

TRAIN = '''
import torch
WIDTH = {width}

def build():
    model = torch.nn.Sequential(torch.nn.Linear(256, WIDTH), torch.nn.ReLU(), torch.nn.Linear(WIDTH, 10)).cuda()
    return model, torch.optim.AdamW(model.parameters()), torch.randn(64, 256, device="cuda"), lambda out, batch: out.sum()
'''


def _prediction(reserved: int, allocated: int, **extra) -> dict:
    return {"peak_reserved": reserved, "peak_allocated": allocated, "steps_run": 2,
            "phases": {"step 1 forward": allocated // 2, "step 1 optimizer step": allocated},
            "breakdown": {"parameters": allocated // 4, "activations": allocated // 2}, **extra}


def test_parse_increase():
    assert baseline.parse_increase("5%") == ("percent", 5.0)
    assert baseline.parse_increase("200MiB") == ("bytes", 200.0 * MIB)
    with pytest.raises(ValueError, match="not a percentage or a size: '5 apples'"):
        baseline.parse_increase("5 apples")


def test_the_gate_compares_the_larger_peak_with_the_allowed_growth():
    base = _prediction(500 * MIB, 450 * MIB)
    grown = _prediction(520 * MIB, 475 * MIB)
    assert baseline.compare(base, grown, "git main", ("percent", 5.0), None)["exit"] == 0
    over = baseline.compare(base, grown, "git main", ("percent", 3.0), None)
    assert over["exit"] == 1 and over["growth"] == 20 * MIB and over["growth_percent"] == 4.0
    assert over["reason"] == "the peak grew by 20.0 MiB (+4.0%) over git main, past --max-increase 3%"
    assert baseline.compare(base, grown, "git main", ("bytes", 16.0 * MIB), None)["exit"] == 1
    assert baseline.compare(base, grown, "git main", None, None)["exit"] == 0  # no threshold: report only
    # It stops fitting: the base fitted the budget, the change does not (a change that did not fit before
    # fails by the verdict itself).
    stops = baseline.compare(base, grown, "git main", None, 510 * MIB)
    assert stops["exit"] == 1 and stops["reason"] == "stops fitting: 520.0 MiB > 510.0 MiB (the base needed 500.0 MiB)"
    # A base with no training step cannot be compared.
    assert baseline.compare({**base, "steps_run": 0}, grown, "git main", None, None)["exit"] == 2


def test_the_comparison_lists_the_changed_phases_and_categories():
    base = _prediction(1000 * MIB, 800 * MIB)
    new = _prediction(1000 * MIB, 800 * MIB)
    new["breakdown"]["activations"] += 100 * MIB
    new["phases"]["step 1 forward"] += 100 * MIB
    text = baseline.lines(baseline.compare(base, new, "base.json", None, None))
    assert text[0] == "compared with base.json: peak 1,000.0 MiB -> 1,000.0 MiB (0 MiB, +0.0%)"
    change = f"{'400.0 MiB':>12} -> {'500.0 MiB':>12}  {'+100.0 MiB':>12}"
    assert text[1:] == ["  by phase (allocated):", f"    {'step 1 forward':<28}{change}",
                        "  at the peak:", f"    {'activations':<28}{change}"]


def _estimate(cwd, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "memlint", "estimate", "--no-eval", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


@pytest.fixture
def repo(tmp_path):
    pytest.importorskip("torch")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "train.py").write_text(TRAIN.format(width=256))
    git = ["git", "-c", "user.email=ci@example.com", "-c", "user.name=ci"]
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    subprocess.run(["git", "add", "."], cwd=tmp_path, check=True)
    subprocess.run([*git, "commit", "-qm", "base"], cwd=tmp_path, check=True)
    (tmp_path / "sub" / "train.py").write_text(TRAIN.format(width=4096))  # the change: a 16x wider layer
    return tmp_path


def test_a_git_ref_is_predicted_in_a_temporary_worktree(repo):
    done = _estimate(repo / "sub", "train:build", "--baseline", "HEAD", "--max-increase", "5%", "--format", "json")
    assert done.returncode == 1, done.stdout + done.stderr
    result = json.loads(done.stdout)
    comparison = result["baseline"]
    assert comparison["base"] == "git HEAD" and comparison["exit"] == 1 and result["exit"] == 1
    params = comparison["categories"]["parameters"]
    assert params["new"] > 10 * params["base"] > 0  # the base ran on the committed, narrower model
    assert comparison["growth"] == result["peak_reserved"] - comparison["base_peak_reserved"]
    worktrees = subprocess.run(["git", "worktree", "list"], cwd=repo, capture_output=True, text=True).stdout
    assert len(worktrees.splitlines()) == 1  # the temporary worktree is gone
    assert _estimate(repo / "sub", "train:build", "--baseline", "HEAD", "--max-increase", "1GiB").returncode == 0


def test_a_saved_prediction_and_the_ci_formats(repo):
    sub = repo / "sub"
    (sub / "base.json").write_text(json.dumps(_prediction(70 * MIB, 60 * MIB)))
    github = _estimate(sub, "train:build", "--baseline", "base.json", "--max-increase", "10MiB", "--format", "github")
    assert github.returncode == 1
    assert "compared with saved prediction base.json: peak 70.0 MiB -> " in github.stdout
    assert "::error file=train.py,line=5,title=memlint estimate --baseline::the peak grew by " in github.stdout
    assert "title=memlint estimate::" not in github.stdout  # no budget: the verdict itself is no error
    sarif = json.loads(_estimate(sub, "train:build", "--baseline", "base.json", "--max-increase", "10MiB",
                                 "--format", "sarif").stdout)
    (found,) = sarif["runs"][0]["results"]
    assert found["ruleId"] == "MLE002" and found["level"] == "error"
    assert found["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "train.py"


@pytest.mark.parametrize("args, message", [
    (["--baseline", "no-such-ref"], "--baseline no-such-ref: neither a saved prediction (a JSON file) nor a git ref"),
    (["--max-increase", "5%"], "--max-increase needs --baseline REF"),
    (["--baseline", "HEAD", "--max-increase", "lots"],
     "--max-increase: not a percentage or a size: 'lots' (examples: 5%, 200MiB)"),
])
def test_bad_baselines_say_why_in_one_line(repo, args, message):
    done = _estimate(repo / "sub", "train:build", *args)
    assert done.returncode == 2 and done.stderr.strip() == f"memlint estimate: {message}" + (
        " of the repository here" if "neither" in message else "")


@pytest.mark.parametrize("ref, message", [
    ("no-such-ref", "--baseline no-such-ref: neither a saved prediction (a JSON file) nor a git ref of the repository here"),
    ("notes.json", "--baseline notes.json: not a saved prediction (memlint estimate --format json)"),
])
def test_a_base_that_cannot_be_had_is_said_before_the_run(repo, ref, message):
    # The program is never run: its own failure (a module that does not exist) would be the line otherwise.
    (repo / "sub" / "notes.json").write_text(json.dumps({"text": "no prediction"}))
    done = _estimate(repo / "sub", "no_such_module:build", "--baseline", ref)
    assert done.returncode == 2 and done.stderr.strip() == f"memlint estimate: {message}"
    # A valid base with the same missing module: the run's own failure, after the base was found.
    assert "no_such_module" in _estimate(repo / "sub", "no_such_module:build", "--baseline", "HEAD").stderr
