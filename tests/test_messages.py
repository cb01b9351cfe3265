"""Finding messages: the measured cost and its source on the help line (the one-short-sentence
check runs on every test case, in test_cases_test.py), and ML011's rank wording only for a
program of several processes."""

from __future__ import annotations

from pathlib import Path

from memlint.engine import lint_source
from memlint.rules import ALL_RULES

CASES = Path(__file__).resolve().parent.parent / "test_cases"
CODES = [r.code for r in ALL_RULES]


def findings_of(path: Path):
    findings, errors = lint_source(path.read_text(encoding="utf-8"), str(path), CODES)
    assert not errors, errors
    return findings


def hint_of(folder: str, code: str) -> str:
    bad = sorted((CASES / folder).glob("bad_*[!d].py"))[0]
    return next(f.hint for f in findings_of(bad) if f.code == code)


def test_evidence_is_on_the_help_line() -> None:
    assert "1.56x slower per step measured" in hint_of("ML004_empty_cache_per_step", "ML004")
    assert "+128 MiB per step measured" in hint_of("ML002_autocast_cache_disabled", "ML002")
    assert "1.5x-3x slower training" in hint_of("ML009_anomaly_detection_enabled", "ML009")


def test_ml011_speaks_of_ranks_only_in_a_program_of_several_processes() -> None:
    folder = CASES / "ML011_load_without_map_location"
    (ddp,) = findings_of(folder / "bad_ddp_snapshot_every_rank.py")  # reads LOCAL_RANK: torchrun starts it
    assert "every rank" in ddp.message and "pytorch issue 7415" in ddp.hint
    for name in ("bad_resume_checkpoint_dict.py", "bad_load_state_dict_inline.py", "bad_aliased_load_best_model.py"):
        for finding in findings_of(folder / name):
            assert "rank" not in finding.message + finding.hint, finding
            assert finding.message.endswith("puts every tensor back on the device it was saved from")


def test_ml005_speaks_of_a_training_step_only_where_the_step_updates_weights() -> None:
    folder = CASES / "ML005_eval_outputs_on_device"
    (trained,) = [f for f in findings_of(folder / "bad_training_step_detached_logits_kept.py") if f.code == "ML005"]
    assert "every training step" in trained.message
    # an encoding loop that runs the model under no_grad inside it updates no weight
    for finding in findings_of(folder / "bad_encodings_joined_by_torch_after_loop.py"):
        if finding.code == "ML005":
            assert "training" not in finding.message and "every step" in finding.message, finding


def test_ml001_speaks_of_a_graph_skeleton_only_where_the_callee_backwards_what_it_returns() -> None:
    folder = CASES / "ML001_retained_graph"
    # `_step` backwards the loss it returns: what is kept is its graph skeleton
    (kept,) = [f for f in findings_of(folder / "bad_loss_kept_after_backward_helper_method.py") if f.code == "ML001"]
    assert "graph skeleton" in kept.message, kept
    # `update` backwards its loss but returns another value of a second forward, never backwarded
    (halved,) = [f for f in findings_of(folder / "bad_tensor_halved_in_place_returned.py") if f.code == "ML001"]
    assert "never backwarded" in halved.message and "skeleton" not in halved.message, halved


def test_ml001_counts_a_derivative_of_a_value_marked_to_require_grad_as_its_differentiation() -> None:
    # `torch.autograd.grad(loss.requires_grad_(True), [latents])`: `requires_grad_` returns the loss
    # itself, which is differentiated; the kept latents hold a graph skeleton
    folder = CASES / "ML001_retained_graph"
    (kept,) = [f for f in findings_of(folder / "bad_loss_kept_after_autograd_grad_of_marked_loss.py") if f.code == "ML001"]
    assert "graph skeleton" in kept.message and "never backwarded" not in kept.message, kept
