"""Files that test memlint's limits: big, deep, slow to analyse, not regular, or on stdin.

Nothing here measures time: linearity is checked by counting the analysis's steps,
the budget with a rule that never ends and a budget of a fifth of a second of CPU.
"""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import libcst as cst
import pytest
from click.testing import CliRunner

from memlint import engine
from memlint.analysis.facts.cuda_init import CudaInit
from memlint.analysis.syntax.scopes import Scopes
from memlint.budget import BUDGET_VARIABLE
from memlint.cli import main
from memlint.rules import ALL_RULES, BY_CODE, FILE_PROBLEMS

CODES = [r.code for r in (*ALL_RULES, *FILE_PROBLEMS)]
LEAK = "import torch\n\nlosses = []\nfor x in loader:\n    loss = model(x).sum()\n    loss.backward()\n    losses.append(loss)\n"


def _synthetic(functions: int) -> str:
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    from big_files import BLOCK, HEADER

    return HEADER + "".join(BLOCK.format(i=i) for i in range(functions))


def _counter(steps: dict[str, int]):
    """A wrapper maker that counts, in `steps["n"]`, the calls of the methods it wraps."""

    def counted(method):
        def wrapper(*args, **kwargs):
            steps["n"] += 1
            return method(*args, **kwargs)

        return wrapper

    return counted


# -- linear in the file's size -------------------------------------------------
def test_the_cuda_analysis_does_work_linear_in_the_file(monkeypatch) -> None:
    """The project summary asked, for every call, about every earlier call and CUDA use of its
    scope (20k lines: 27 s). Count the steps of a file and of one four times its size."""
    steps = {"n": 0}
    counted = _counter(steps)
    monkeypatch.setattr(CudaInit, "_exclusive", counted(CudaInit._exclusive))
    monkeypatch.setattr(Scopes, "scope_of", counted(Scopes.scope_of))
    counts = []
    for functions in (50, 200):
        steps["n"] = 0
        result = engine.lint_source(_synthetic(functions), "big.py", CODES)
        assert len(result[0]) == functions  # one ML001 a function
        counts.append(steps["n"])
    assert counts[1] <= 4.5 * counts[0], counts


def test_big_file_benchmark_generates_what_it_says() -> None:
    text = _synthetic(10)
    assert text.count("\n") == 5 + 9 * 10
    cst.parse_module(text)


# -- a budget for each analysis ------------------------------------------------
class _Stuck:
    """A rule that never finishes on the module: what a superlinear analysis looks like on a big file."""

    def hooks(self):
        return {cst.Module: "spin"}

    def spin(self, node):
        while True:
            pass


def test_an_analysis_over_its_budget_is_stopped_with_one_line_and_the_rest_is_kept(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv(BUDGET_VARIABLE, "0.2")
    rule = BY_CODE["ML004"]
    monkeypatch.setattr(rule, "hooks", _Stuck.hooks)
    monkeypatch.setattr(rule, "spin", _Stuck.spin, raising=False)
    path = tmp_path / "train.py"
    path.write_text(LEAK + "torch.cuda.empty_cache()\n")
    result = engine.lint_path(str(path), CODES)
    assert [f.code for f in result.findings] == ["ML001"]
    (note,) = result.errors
    assert note.note and not note.internal
    assert note.message == "ML004 [empty-cache-per-step] stopped after 0.2 s of CPU on this file: its findings here are missing"

    out = CliRunner().invoke(main, ["lint", "--no-cache", str(path)])
    assert out.exit_code == 1  # the findings decide: the note is a warning, not an error
    assert out.stderr.strip() == f"memlint: warning: {path}: {note.message}"


def test_a_summary_over_its_budget_loses_the_index_entry_only(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv(BUDGET_VARIABLE, "0.2")

    def stuck(model):
        while True:
            pass

    monkeypatch.setattr(engine, "summarize", stuck)
    findings, errors, summary = engine._lint_text(LEAK, "train.py", CODES)
    assert [f.code for f in findings] == ["ML001"] and summary == {}
    assert [e.message for e in errors] == [
        "the project summary stopped after 0.2 s of CPU on this file; the project index misses this file"
    ]


def test_a_file_over_the_size_limit_is_only_checked_for_syntax(monkeypatch, tmp_path) -> None:
    monkeypatch.setattr(engine, "MAX_ANALYSED_BYTES", 100)
    result = engine.lint_path(_write(tmp_path, "big.py", LEAK + "x = (\n"), CODES)
    assert [f.code for f in result.findings] == ["ML000"]
    assert result.errors[0].note and "over memlint's 3 MB analysis limit" in result.errors[0].message


# -- depth ------------------------------------------------------------------
DEEP = textwrap.dedent(
    """\
    import torch

    def train(model, loader, opt):
        losses = []
        for x0 in loader:
            x1 = x2 = x0
            loss = model(TERMS).sum()
            loss.backward()
            losses.append(loss)


    def train2(model, loader):
        history = []
        for batch in loader:
            loss = model(batch).sum()
            loss.backward()
            history.append(loss)
    """
).replace("TERMS", " + ".join(f"x{i % 3}" for i in range(1000)))


def test_a_1000_term_sum_is_analysed_in_the_cli_and_the_server(tmp_path) -> None:
    compile(DEEP, "deep.py", "exec")  # CPython takes it: memlint must too
    path = _write(tmp_path, "deep.py", DEEP)
    result = engine.lint_path(path, CODES)
    assert [(f.code, f.location.row) for f in result.findings] == [("ML001", 9), ("ML001", 17)] and not result.errors
    from memlint.server.incremental import IncrementalParser

    served = engine.lint_text(path, DEEP, None, CODES, IncrementalParser())  # type: ignore[arg-type]
    assert [(f.code, f.location.row) for f in served.findings] == [("ML001", 9), ("ML001", 17)] and not served.errors


def test_a_file_too_deep_for_libcst_is_one_finding_and_the_others_are_linted(monkeypatch, tmp_path) -> None:
    real = cst.parse_module

    def parse(text, *args, **kwargs):
        if "TOO_DEEP" in text:
            raise RecursionError("maximum recursion depth exceeded")
        return real(text, *args, **kwargs)

    monkeypatch.setattr(engine.cst, "parse_module", parse)
    deep = _write(tmp_path, "deep.py", "# TOO_DEEP\n" + LEAK)
    other = _write(tmp_path, "other.py", LEAK)
    out = CliRunner().invoke(main, ["lint", "--no-cache", "--format", "json", deep, other])
    assert out.exit_code == 1
    import json

    found = sorted((os.path.basename(f["filename"]), f["code"], f["message"]) for f in json.loads(out.output))
    assert found == [
        ("deep.py", "ML900", "nested too deeply for memlint's parser"),
        ("other.py", "ML001", found[1][2]),
    ]


# -- standard input and files that are not regular ----------------------------------------
def test_dash_reads_standard_input_under_its_stdin_filename(tmp_path) -> None:
    runner = CliRunner()
    out = runner.invoke(main, ["--no-cache", "--stdin-filename", "train.py", "-"], input=LEAK.encode())
    assert out.exit_code == 1 and out.stdout.startswith("train.py:7:5: ML001")
    out = runner.invoke(main, ["--no-cache", "-"], input=b"x = 1\n")
    assert out.exit_code == 0
    out = runner.invoke(main, ["--no-cache", "--format", "json", "-", _write(tmp_path, "a.py", LEAK)], input=b"x = (\n")
    assert out.exit_code == 1
    assert sorted(f["code"] for f in __import__("json").loads(out.stdout)) == ["ML000", "ML001"]
    out = runner.invoke(main, ["--fix", "-"], input=LEAK.encode())
    assert out.exit_code == 2 and "standard input" in out.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_named_fifo_or_link_loop_is_an_ml900_finding_and_the_rest_is_linted(tmp_path) -> None:
    fifo = tmp_path / "fifo.py"
    os.mkfifo(fifo)
    loop = tmp_path / "loop.py"
    loop.symlink_to(loop)
    good = _write(tmp_path, "good.py", LEAK)
    for cache in (["--no-cache"], ["--cache-dir", str(tmp_path / "cache")]):
        out = CliRunner().invoke(main, ["lint", *cache, "--format", "json", str(fifo), str(loop), good])
        assert out.exit_code == 1, out.output
        found = {(os.path.basename(f["filename"]), f["code"], f["message"]) for f in __import__("json").loads(out.output)}
        assert ("fifo.py", "ML900", "is not a regular file (a FIFO)") in found
        assert ("loop.py", "ML900", "cannot read: Too many levels of symbolic links") in found
        assert any(name == "good.py" and code == "ML001" for name, code, _ in found)


def _write(directory: Path, name: str, text: str) -> str:
    path = directory / name
    path.write_text(text)
    return str(path)


def _doubling_chains(depth: int) -> str:
    """Three chains `depth` deep in which every step reads the one before twice, none of it on the
    device nor a tensor: a helper that calls the helper before it twice, names bound to two gathers
    of the name before, and an autograd Function's locals summed from the local before."""
    helpers = "def h0(a):\n    return 0\n" + "".join(
        f"def h{i}(a):\n    return h{i - 1}(a) + h{i - 1}(a)\n" for i in range(1, depth + 1)
    )
    gathers = "".join(
        f"            v{i} = accelerator.gather(v{i - 1}) + accelerator.gather(v{i - 1})\n" for i in range(1, depth + 1)
    )
    sums = "".join(f"        k{i} = k{i - 1} + k{i - 1}\n" for i in range(1, depth + 1))
    return (
        "import torch\nfrom accelerate import Accelerator\n\n"
        + helpers
        + "def evaluate(model, loader):\n    accelerator = Accelerator()\n    model.eval()\n    outs = []\n"
        + "    with torch.no_grad():\n        for x in loader:\n"
        + f"            outs.append(h{depth}(x))\n            v0 = x.sum()\n{gathers}            outs.append(v{depth})\n"
        + "    return outs\n\n"
        + "class Scale(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, a):\n"
        + f"        k0 = a.shape[0]\n{sums}        ctx.k = k{depth}\n        return a * 2\n"
    )


def test_device_and_ctx_questions_visit_each_helper_and_name_once(monkeypatch) -> None:
    """Which kept values are device outputs follows the helpers a call reaches and the values a
    gather is handed, and whether what a Function keeps on `ctx` is a tensor follows its locals'
    bindings; with a copy of the visited set per path, a chain of steps that each read the one
    before twice took 2^depth visits (20 deep: over a minute). Count the visits at two depths."""
    from memlint.analysis.facts.autograd_functions import _TensorEvidence
    from memlint.analysis.flow.provenance import Provenance

    steps = {"n": 0}
    counted = _counter(steps)
    monkeypatch.setattr(Provenance, "_device", counted(Provenance._device))
    monkeypatch.setattr(_TensorEvidence, "is_tensor", counted(_TensorEvidence.is_tensor))
    counts = []
    for depth in (8, 16):
        steps["n"] = 0
        findings, _ = engine.lint_source(_doubling_chains(depth), "chains.py", CODES)
        assert not findings, [(f.location.row, f.code) for f in findings]
        counts.append(steps["n"])
    assert 0 < counts[1] <= 2.5 * counts[0], counts
