"""The report of `memlint estimate` from plain data (no torch): the modules listed, one unit
per report, the notes on fake values and torch versions, the refusals, the plot."""

from __future__ import annotations

import io

import pytest

from memlint.estimate import TESTED_TORCH, report, sizes, summary

MIB, GIB = sizes.MIB, sizes.GIB


def _use(name: str, growth: int) -> dict:
    return {"module": name, "parameters": 0, "forward_growth": growth, "local_peak": growth}


def test_top_modules_descend_into_containers_to_where_the_memory_sits():
    # nanoGPT: transformer is a ModuleDict (never called), h a ModuleList; lm_head is called.
    uses = [_use("GPT", 90), _use("GPT.transformer.wte", 4), _use("GPT.transformer.h.0", 40),
            _use("GPT.transformer.h.0.attn", 30), _use("GPT.transformer.h.1", 40), _use("GPT.lm_head", 6)]
    assert [u["module"] for u in summary.top_modules(uses)] == [
        "GPT.transformer.h.0", "GPT.transformer.h.1", "GPT.lm_head", "GPT.transformer.wte"]
    # One Sequential holding nearly everything is opened up.
    nested = [_use("Net", 100), _use("Net.body", 95), _use("Net.body.0", 60), _use("Net.body.1", 35),
              _use("Net.head", 5)]
    assert [u["module"] for u in summary.top_modules(nested)] == ["Net.body.0", "Net.body.1", "Net.head"]


def _result(peak: int, **extra) -> dict:
    base = {"target": "t:f", "torch": f"{TESTED_TORCH[-1]}.0+cpu", "steps_run": 2, "seconds": 1.0,
            "peak_allocated": peak, "peak_reserved": peak, "peak_phase": "step 2 backward",
            "breakdown": {"parameters": peak // 2, "activations": peak // 2 - 512, "inputs (batch)": 512},
            "training_activations": peak // 2, "phases": {"step 1 forward": peak // 2, "step 2 backward": peak},
            "phase_breakdown": {"step 1 forward": {"parameters": peak // 2}, "step 2 backward": {"parameters": peak}},
            "steps": {"1": peak // 2, "2": peak}, "modules": [], "stopped": ""}
    return {**base, **extra}


@pytest.mark.parametrize("peak, unit", [(300 * MIB, "MiB"), (3 * GIB, "GiB")])
def test_one_unit_per_report(peak, unit):
    out = io.StringIO()
    report.write(_result(peak), "text", out, 80 * GIB, "NVIDIA H100 80 GB")
    text = out.getvalue()
    other = {"MiB", "GiB", "KiB"} - {unit}
    assert unit in text and not any(f" {o}" in text for o in other)
    assert text.splitlines()[-1].startswith("NVIDIA H100 80 GB: fits:")


def test_notes_on_fake_values_and_on_an_untested_torch():
    uses = [{"kind": "value", "site": "train.py:9", "count": 400, "answer": 1.0},
            {"kind": "format", "site": "train.py:30", "count": 2, "answer": 1.0}]
    out = io.StringIO()
    report.write(_result(300 * MIB, scalar_uses=uses, torch="2.1.0"), "text", out, None)
    lines = out.getvalue().splitlines()
    assert "note: 400 fake value(s) read as a Python number, answered 1.0: train.py:9 (400x)" in lines
    assert "note: 2 fake value(s) formatted, answered 1.0: train.py:30 (2x)" in lines
    assert any(line.startswith("note: torch 2.1 is not one memlint estimate was tested on") for line in lines)
    out = io.StringIO()
    report.write(_result(300 * MIB), "text", out, None)
    assert "not one memlint estimate was tested on" not in out.getvalue()


def test_refusal_beats_fits_in_every_format():
    result = _result(300 * MIB, empty_input="(64, 0) at train.py:40")
    for fmt in ("text", "json", "github"):
        out = io.StringIO()
        assert report.write(result, fmt, out, 80 * GIB, "h100") == 2
        assert "refused: the model was called with an input of shape (64, 0) at train.py:40" in out.getvalue()
        assert "fits: " not in out.getvalue()


def test_plot_draws_a_png(tmp_path):
    pytest.importorskip("matplotlib")
    from memlint.estimate import plot

    target = tmp_path / "estimate.png"
    plot.draw(_result(300 * MIB), str(target), 1 * GIB, "--budget 1GiB")
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_compiled_program_is_said_to_be_predicted_as_eager_code():
    out = io.StringIO()
    report.write(_result(300 * MIB, compiled=["train.py:196"]), "text", out, None)
    assert any(line.startswith("note: torch.compile (train.py:196) ran as eager code: this is eager execution's peak")
               for line in out.getvalue().splitlines())
