"""`memlint verify [PATHS] -- COMMAND` on the sample project (tests/fixtures/leaky_project):
the finding sits in an imported module, in a hook that a trainer of another module
calls, or in a rank of a data-parallel run; the command is `python SCRIPT`,
`python -m`, torchrun or pytest. CPU, live-storage tracker."""

from __future__ import annotations

import pytest
from conftest import PYTHON, VerifyCommand, free_port

LEAK_MIB = 1.25  # the loss's graph: the 256x256 input and pow's saved 256x1024 output


def site(items: list[dict], filename: str) -> list[dict]:
    return [i for i in items if i["filename"].endswith(filename)]


def test_imported_module_through_python_script(verify_command: VerifyCommand) -> None:
    code, items = verify_command(PYTHON, "train.py", "loop", "40")
    assert code == 1
    (item,) = site(items, "mypkg/loops.py")
    assert item["verdict"] == "confirmed" and item["site_kind"] == "loop" and item["rank"] is None
    assert item["iterations"] == 8
    assert item["slope_mib_per_iter"] == pytest.approx(LEAK_MIB, rel=0.02)
    top = item["allocations"][0]  # the model call whose graph `losses` keeps
    assert top["file"].endswith("mypkg/loops.py") and top["line"] == 10 and top["function"] == "train"
    assert top["mib_per_iter"] == pytest.approx(1.0, rel=0.02)
    assert [s["function"] for s in top["stack"]] == ["train", "main", "<module>"]
    (hook,) = site(items, "mypkg/hooks.py")
    assert hook["verdict"] == "not_reached"
    (ddp,) = site(items, "train_ddp.py")
    assert ddp["verdict"] == "not_reached" and "imported" in ddp["note"]


def test_module_run_with_dash_m_and_a_hook_probed_per_call(verify_command: VerifyCommand) -> None:
    code, items = verify_command(PYTHON, "-m", "mypkg.train", "hook", "40")
    assert code == 1
    (item,) = site(items, "mypkg/hooks.py")
    assert item["verdict"] == "confirmed" and item["site_kind"] == "call"
    assert item["loop"]["row"] == 12 and item["iterations"] == 8  # `def training_step`: one call, one iteration
    assert item["slope_mib_per_iter"] == pytest.approx(LEAK_MIB, rel=0.02)
    assert (item["allocations"][0]["line"], item["allocations"][0]["function"]) == (13, "training_step")


def test_script_mode_also_proves_the_modules_it_imports(leaky_project) -> None:
    """`memlint verify train.py -- ARGS`: train.py holds no finding; the hook of
    mypkg/hooks.py, imported through mypkg/train.py, is proved by a run of the script."""
    import json

    from click.testing import CliRunner

    from memlint.cli import main

    result = CliRunner().invoke(main, ["verify", "--device", "cpu", "-n", "8", "--format", "json", "train.py", "--",
                                       "hook", "40"], catch_exceptions=False)
    assert result.exit_code == 1
    items = json.loads(result.stdout)
    (hook,) = site(items, "mypkg/hooks.py")
    assert hook["verdict"] == "confirmed" and hook["site_kind"] == "call"


def test_torchrun_two_ranks_only_rank_0_leaks(verify_command: VerifyCommand) -> None:
    code, items = verify_command(PYTHON, "-m", "torch.distributed.run", "--nproc-per-node", "2",
                                 "--master-port", free_port(), "train_ddp.py")
    assert code == 1
    by_rank = {i["rank"]: i for i in site(items, "train_ddp.py")}
    assert set(by_rank) == {0, 1}
    assert by_rank[0]["verdict"] == "confirmed"
    assert by_rank[0]["slope_mib_per_iter"] == pytest.approx(1.0, rel=0.02)  # `out`, 256x1024
    assert by_rank[0]["allocations"][0]["line"] == 25  # out = model(x)
    assert by_rank[1]["verdict"] == "not_confirmed"


def test_pytest_entry(verify_command: VerifyCommand) -> None:
    code, items = verify_command(PYTHON, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", ".", "check_train.py")
    assert code == 1
    (item,) = site(items, "mypkg/loops.py")
    assert item["verdict"] == "confirmed"
    assert item["slope_mib_per_iter"] == pytest.approx(LEAK_MIB, rel=0.02)


# -- without running anything ---------------------------------------------------
def test_call_probe_sits_on_the_first_statements_line() -> None:
    import libcst as cst

    from memlint.verify.instrument import instrument_all

    source = (
        "def step(self, batch):\n    'Doc.'\n    return batch\n"
        "def guarded(x):\n    if x:\n        return 1\n"
        "def looping(x):\n    while x:\n        x -= 1\n"
    )
    module = cst.parse_module(source)
    funcs = [n for n in module.body if isinstance(n, cst.FunctionDef)]
    code, placed = instrument_all(module, {id(f): k for k, f in enumerate(funcs)})
    lines = code.splitlines()
    assert lines[1] == "    'Doc.'; __memlint_call__(0)"  # the docstring stays a docstring
    assert lines[4] == "    if __memlint_call__(1, (x)):"
    assert placed == {0, 1}  # a `while` first would probe every iteration of it: left out
    assert code.count("\n") == source.count("\n")


def test_rank_summary_says_where_ranks_differ() -> None:
    from memlint.verify.core import Item, Measure
    from memlint.verify.report import rank_summary

    def item(rank: int, verdict: str, slope: float) -> Item:
        return Item("t.py", None, None, Measure(verdict, slope_mib=slope), rank=rank)

    items = [item(0, "confirmed", 32.0), item(1, "not_confirmed", 0.0), item(2, "not_confirmed", 0.0)]
    assert rank_summary(items) == "confirmed on rank 0 only: +32.00 MiB/iter; rank 1 flat; rank 2 flat"
    assert rank_summary([item(0, "confirmed", 1.0), item(1, "confirmed", 2.0)]).startswith("confirmed on every rank (2)")
    assert rank_summary(items[1:]) == ""


def test_plot_has_a_line_per_rank(tmp_path) -> None:
    from memlint.models import Finding, Position, Severity
    from memlint.verify import targets
    from memlint.verify.core import Item, Measure, ScriptResult
    from memlint.verify.report import plot

    site = targets.LoopInfo(0, 20, 5, 28, "for", "for step in range(n):")
    finding = Finding("ML001", "retained-graph", "kept", Severity.WARNING, "t.py", Position(28, 13), Position(28, 16))
    flat, leak = [100 * 2**20] * 9, [100 * 2**20 + i * 2**20 for i in range(9)]
    result = ScriptResult("torchrun t.py", command=["torchrun", "t.py"], items=[
        Item("t.py", finding, site, Measure("confirmed", samples=leak, slope_mib=1.0), rank=0),
        Item("t.py", finding, site, Measure("not_confirmed", samples=flat), rank=1),
    ])
    assert plot([result], str(tmp_path / "ranks.png")) == 1  # one panel (the loop), two lines
    assert (tmp_path / "ranks.png").stat().st_size > 10_000


@pytest.mark.parametrize("paths, after, command", [
    ((), ["python", "train.py"], True),
    ((".",), ["python", "train.py"], True),
    (("train.py",), ["--epochs", "1"], False),  # the script's own arguments, as before
    (("train.py",), ["12"], False),
    (("mypkg/loops.py",), ["python", "train.py"], True),
])
def test_what_follows_the_double_dash(leaky_project, paths, after, command) -> None:
    from memlint.verify.cli import is_command

    assert is_command(paths, after) is command
