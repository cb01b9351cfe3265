"""`memlint verify`: instrumentation, statistics, and end-to-end runs on CPU.

The end-to-end tests run real scripts with real tensors under the
live-storage tracker (`--device cpu`): the figure scripts of
benchmarks/verify_figures/ at their small size, the declared test cases of
test_cases/, and scripts that crash, exit early, never reach the loop, run
forever or exhaust memory.
"""

from __future__ import annotations

import json
import os
import textwrap
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from memlint.cli import main
from memlint.verify import cases, stats, targets
from memlint.verify.instrument import instrument

ROOT = Path(__file__).resolve().parent.parent
FIGURES = ROOT / "benchmarks" / "verify_figures"
MIB = 1024 * 1024


# -- statistics ---------------------------------------------------------------
def test_theil_sen_ignores_outliers() -> None:
    xs = list(range(10))
    ys = [2.0 * x for x in xs]
    ys[4] = 100.0
    assert stats.theil_sen(xs, ys) == pytest.approx(2.0)


def test_steady_growth_leaks_and_flat_does_not() -> None:
    leak = [100 * MIB + i * MIB for i in range(31)]
    assert stats.growth(leak).leaks
    assert stats.growth(leak).slope_mib == pytest.approx(1.0)
    flat = [100 * MIB + (i % 3) * 4096 for i in range(31)]
    assert not stats.growth(flat).leaks


@pytest.mark.parametrize("per_iter_mib, leaks", [(0.0005, False), (0.03, False), (1.0, True), (18.0, True)])
def test_threshold_separates_the_measured_cases(per_iter_mib: float, leaks: bool) -> None:
    samples = [int(50 * MIB + i * per_iter_mib * MIB) for i in range(31)]
    assert stats.growth(samples).leaks is leaks


def test_one_off_step_is_not_a_leak() -> None:
    """Half the pairs straddle a single jump: Theil-Sen alone would call it growth."""
    samples = [10 * MIB] * 16 + [110 * MIB] * 15
    g = stats.growth(samples)
    assert g.slope_mib > stats.THRESHOLD_MIB
    assert not g.leaks


def test_warmup_leaves_out_first_iterations() -> None:
    samples = [0, 300 * MIB, 300 * MIB] + [300 * MIB] * 28  # optimizer state on the first step
    assert not stats.growth(samples).leaks


# -- instrumentation ----------------------------------------------------------
SOURCE = textwrap.dedent(
    '''\
    import torch
    xs = [1, 2]

    def f(loader):
        for a, b in loader:  # a comment
            if a:
                continue
        while (n := len(xs)) > 5 or xs:
            xs.pop()
        for q in 1, 2:
            pass
        return [x.cpu() for x in xs], xs[0].to("cpu"), xs[0].to(device=torch.device("cpu")), xs[0].to(dev)
    '''
)


def test_instrumentation_keeps_every_line() -> None:
    parsed = targets.parse(SOURCE)
    probes = {id(loop): ordinal for ordinal, loop in enumerate(parsed.loops)}
    out = instrument(parsed.module, probes)
    assert out.count("\n") == SOURCE.count("\n")
    lines = out.splitlines()
    assert lines[4] == "    for a, b in __memlint_loop__(0, (loader)):  # a comment"
    assert lines[7] == "    while __memlint_while__(1, ((n := len(xs)) > 5 or xs)):"
    assert lines[9] == "    for q in __memlint_loop__(2, (1, 2)):"
    assert "__memlint_host__(x.cpu())" in lines[11]
    assert '__memlint_host__(xs[0].to("cpu"))' in lines[11]
    assert "__memlint_host__(xs[0].to(device=torch.device(\"cpu\")))" in lines[11]
    assert "__memlint_host__(xs[0].to(dev))" not in lines[11]
    compile(out, "<test>", "exec")


def test_loops_map_to_findings() -> None:
    from memlint.engine import lint_source
    from memlint.verify.core import ALL_CODES

    text = (FIGURES / "fig4_autocast_decode.py").read_text()
    parsed = targets.parse(text)
    findings, _ = lint_source(text, "fig4.py", ALL_CODES)
    (ml002,) = [f for f in findings if f.code == "ML002"]
    loop, why = targets.loop_for(parsed, ml002)
    assert loop is not None, why
    assert parsed.infos[parsed.ordinal(loop)].header.startswith("for step in range")


def test_compare_fix_uses_memlints_fixes() -> None:
    from memlint.fixes import fix_source

    source = (FIGURES / "fig5_eval_without_no_grad.py").read_text()
    fixed = fix_source(source, "fig5.py", ["ML001", "ML003"], unsafe=True)
    assert {f.code for f in fixed.applied} == {"ML001", "ML003"}
    assert "@torch.no_grad()" in fixed.text and "out.sum().detach()" in fixed.text


def test_case_marker(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("# verify: leaks\n")
    (tmp_path / "b.py").write_text("# verify: flat\n")
    (tmp_path / "c.py").write_text("import torch\n# verify: leaks\n")
    assert [Path(p).name for p in cases.discover(str(tmp_path))] == ["a.py", "b.py"]
    assert cases.expectation(str(tmp_path / "c.py")) is None


def test_plain_lint_never_runs_code(tmp_path: Path) -> None:
    script = tmp_path / "boom.py"
    marker = tmp_path / "ran"
    script.write_text(f"open({str(marker)!r}, 'w').close()\nlosses = []\nfor x in loader:\n    losses.append(model(x))\n")
    CliRunner().invoke(main, [str(script), "--no-cache"])
    assert not marker.exists()


# -- end to end (CPU torch) --------------------------------------------------
torch_needed = pytest.mark.skipif(
    __import__("importlib").util.find_spec("torch") is None, reason="needs torch (CI installs the CPU build)"
)


def verify_json(*args: str, expect_exit: int | None = None) -> list[dict]:
    result = CliRunner().invoke(main, ["verify", "--device", "cpu", "--format", "json", *args], catch_exceptions=False)
    if expect_exit is not None:
        assert result.exit_code == expect_exit, result.output
    return json.loads(result.stdout)


# Full size (GPU) / small size (CPU, these tests): growth in MiB per iteration.
# fig2 and fig5 divide the width by 4 (activations / 4); fig3 and fig4 divide
# the matrix side by 4 (n² / 16).
SCALAR = 512 / MIB  # a kept scalar loss: one 512-byte block per iteration
FIGURE_EXPECTATIONS = {
    "fig1_backward_append.py": ("not_confirmed", SCALAR, "not_confirmed", SCALAR),
    "fig2_no_backward_append.py": ("confirmed", 18 / 4, "not_confirmed", SCALAR),
    "fig2b_no_backward_no_grad.py": ("not_confirmed", SCALAR, "not_confirmed", SCALAR),
    "fig3_ctx_function.py": ("confirmed", 192 / 16, "not_confirmed", SCALAR),
    "fig4_autocast_decode.py": ("confirmed", 128 / 16, "not_confirmed", 0.03 / 4),
    "fig5_eval_without_no_grad.py": ("confirmed", 32 / 4, "not_confirmed", SCALAR),
}


@pytest.fixture(scope="module")
def figures(tmp_path_factory) -> list[dict]:
    if __import__("importlib").util.find_spec("torch") is None:
        pytest.skip("needs torch")
    plot = tmp_path_factory.mktemp("plot") / "figures.png"
    items = verify_json(str(FIGURES), "--compare-fix", "--plot", str(plot), expect_exit=0)
    assert plot.stat().st_size > 10_000
    return items


@torch_needed
@pytest.mark.parametrize("name", sorted(FIGURE_EXPECTATIONS))
def test_figures_reproduce_on_cpu(figures: list[dict], name: str) -> None:
    verdict, slope, after_verdict, after_slope = FIGURE_EXPECTATIONS[name]
    items = [i for i in figures if i["filename"].endswith(name)]
    assert items, name
    for item in items:
        assert item["verdict"] == verdict, item
        assert item["expectation_held"] is True
        assert item["iterations"] == 30
        assert len(item["samples"]) == 31
        assert item["device"].startswith("cpu")
        # within 5% (the kept scalar losses add 512 bytes per iteration to the leaks)
        assert item["slope_mib_per_iter"] == pytest.approx(slope, rel=0.05), item["slope_mib_per_iter"]
        after = item["after_fix"]
        assert after["verdict"] == after_verdict
        assert after["slope_mib_per_iter"] == pytest.approx(after_slope, rel=0.05), after["slope_mib_per_iter"]
        if verdict == "confirmed":
            assert item["growth_mib"] == pytest.approx(slope * (30 - 3), rel=0.05)


@torch_needed
def test_figure_json_fields(figures: list[dict]) -> None:
    codes = {i["code"] for i in figures}
    assert {"ML001", "ML002", "ML003"} <= codes
    for item in figures:
        for key in ("code", "name", "filename", "location", "verdict", "slope_mib_per_iter", "growth_mib",
                    "iterations", "samples", "device", "after_fix"):
            assert key in item


def write(tmp_path: Path, name: str, body: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(body))
    return path


# Each kept loss holds its graph: the input (256 KiB) and the output saved by
# pow (1 MiB): +1.25 MiB per iteration.
LEAK_LOOP = """
    kept = []
    for x in loader:
        loss = model(x).pow(2).sum()
        kept.append(loss)
"""
LEAK_MIB = 1.25 + 512 / MIB
HEADER = """\
    import sys
    import torch
    model = torch.nn.Linear(256, 1024)
    loader = (torch.randn(256, 256) for _ in range(10**9))
"""


def only(items: list[dict]) -> dict:
    assert len(items) == 1, items
    return items[0]


@torch_needed
def test_script_args_continue_and_disk_untouched(tmp_path: Path) -> None:
    body = HEADER + """
    steps = int(sys.argv[1])
    kept = []
    for i, x in enumerate(loader):
        if i >= steps:
            break
        loss = model(x).pow(2).sum()
        if i % 2:
            kept.append(loss)
            continue
        kept.append(loss)
    """
    script = write(tmp_path, "train.py", body)
    before = script.read_bytes()
    result = CliRunner().invoke(main, ["verify", "--device", "cpu", "--format", "json", "-n", "20", str(script), "--", "12"])
    items = json.loads(result.stdout)
    assert result.exit_code == 1  # a confirmed leak in a script
    assert len(items) == 2  # two appends, one loop
    for item in items:
        assert item["code"] == "ML001" and item["verdict"] == "confirmed"
        assert item["iterations"] == 12  # the script's own end, from its argument
        assert item["slope_mib_per_iter"] == pytest.approx(LEAK_MIB, rel=0.01)  # continue or not
    assert script.read_bytes() == before


@torch_needed
def test_while_loop_and_iteration_limit(tmp_path: Path) -> None:
    body = HEADER + """
    kept = []
    step = 0
    while step < 10**9:
        out = model(next(loader))
        out.mean().backward()
        kept.append(out)  # the output itself: 1 MiB
        step += 1
    """
    item = only(verify_json("-n", "8", str(write(tmp_path, "w.py", body))))
    assert item["verdict"] == "confirmed" and item["iterations"] == 8
    assert item["slope_mib_per_iter"] == pytest.approx(1.0, rel=0.01)


@torch_needed
def test_crash_before_the_loop_is_an_error_with_traceback(tmp_path: Path) -> None:
    body = HEADER + "    raise ValueError('bad config')\n" + LEAK_LOOP
    item = only(verify_json(str(write(tmp_path, "c.py", body)), expect_exit=2))  # could not run: 2, as command mode
    assert item["verdict"] == "error"
    assert "ValueError: bad config" in item["error"] and "c.py\", line 5" in item["error"]


@torch_needed
def test_a_script_that_cannot_run_exits_2(tmp_path: Path) -> None:
    """A segfault, or a script that needs stdin (verify closes it), exits 2 as in command mode, not 0."""
    segfault = HEADER + "    import ctypes\n    ctypes.string_at(0)\n" + LEAK_LOOP
    item = only(verify_json(str(write(tmp_path, "s.py", segfault)), expect_exit=2))
    assert item["verdict"] == "error" and "SIGSEGV" in item["error"]
    reads_stdin = HEADER + "    steps = int(sys.stdin.readline())\n" + LEAK_LOOP
    item = only(verify_json(str(write(tmp_path, "i.py", reads_stdin)), expect_exit=2))
    assert item["verdict"] == "error" and "ValueError" in item["error"]


@torch_needed
def test_crash_inside_the_loop(tmp_path: Path) -> None:
    body = HEADER + """
    kept = []
    for i, x in enumerate(loader):
        kept.append(model(x).pow(2).sum())
        if i == 6:
            raise RuntimeError("diverged")
    """
    item = only(verify_json(str(write(tmp_path, "c.py", body)), expect_exit=2))
    assert item["verdict"] == "error" and "RuntimeError: diverged" in item["error"]
    assert item["iterations"] == 6


@torch_needed
def test_exit_early_and_loop_never_reached(tmp_path: Path) -> None:
    early = HEADER + "    sys.exit(0)\n" + LEAK_LOOP
    item = only(verify_json(str(write(tmp_path, "e.py", early))))
    assert item["verdict"] == "not_reached"
    never = HEADER + "    def train():\n" + textwrap.indent(textwrap.dedent(LEAK_LOOP), "        ") + "    print('no call')\n"
    items = verify_json(str(write(tmp_path, "n.py", never)))
    # the kept loss (ML001) and the run with grad that nothing backwards (ML003): the same loop, never run
    assert sorted(item["code"] for item in items) == ["ML001", "ML003"]
    assert all(item["verdict"] == "not_reached" and item["iterations"] == 0 for item in items)


@torch_needed
def test_runs_forever_is_stopped_and_reaped(tmp_path: Path) -> None:
    pidfile = tmp_path / "pid"
    body = HEADER + f"""
    import os, signal, time
    open({str(pidfile)!r}, "w").write(str(os.getpid()))
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # it will take SIGKILL
    while sum([1]):
        time.sleep(0.05)
    """ + LEAK_LOOP
    start = time.monotonic()
    item = only(verify_json("--timeout", "4", str(write(tmp_path, "f.py", body))))
    assert time.monotonic() - start < 30
    assert item["verdict"] == "not_reached" and "timed out" in item["note"]
    pid = int(pidfile.read_text())
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


@torch_needed
def test_slow_loop_times_out_with_a_verdict(tmp_path: Path) -> None:
    body = HEADER + """
    import time
    kept = []
    for x in loader:
        kept.append(model(x).pow(2).sum())
        time.sleep(1.0)
    """
    # At most 12 iterations fit in the timeout, far below the 30 that would end the run first;
    # 7 need 7 s of it, leaving 5 s for the loop's own work on a loaded machine.
    item = only(verify_json("--timeout", "12", str(write(tmp_path, "s.py", body))))
    assert item["verdict"] == "confirmed" and "timed out" in item["note"]
    assert 7 <= item["iterations"] <= 12  # a verdict needs 5 after the warm-up


@torch_needed
def test_out_of_memory_confirms(tmp_path: Path) -> None:
    body = HEADER + LEAK_LOOP
    item = only(verify_json("--memory-limit", "20", str(write(tmp_path, "o.py", body))))
    assert item["verdict"] == "confirmed" and "out of memory" in item["note"]
    assert "OutOfMemoryError" in item["error"] or "out of memory" in item["error"]


@torch_needed
def test_spawn_launcher(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where fork is not used (Windows, MEMLINT_VERIFY_SPAWN=1): one `python -c` per script."""
    monkeypatch.setenv("MEMLINT_VERIFY_SPAWN", "1")
    item = only(verify_json("-n", "8", str(write(tmp_path, "sp.py", HEADER + LEAK_LOOP))))
    assert item["verdict"] == "confirmed"
    assert item["slope_mib_per_iter"] == pytest.approx(LEAK_MIB, rel=0.01)


@torch_needed
def test_text_table(tmp_path: Path) -> None:
    script = write(tmp_path, "t.py", HEADER + LEAK_LOOP)
    result = CliRunner().invoke(main, ["verify", "--device", "cpu", "-n", "10", "--compare-fix", str(script)])
    assert result.exit_code == 1
    assert "ML001 retained-graph" in result.output
    assert "confirmed" in result.output and "after fix: not confirmed" in result.output


CASES = ROOT / "test_cases"


@pytest.fixture(scope="module")
def declared_cases() -> dict[str, list[dict]]:
    """`memlint verify test_cases/`, once: every runnable case, two at a time."""
    if __import__("importlib").util.find_spec("torch") is None:
        pytest.skip("needs torch")
    by_file: dict[str, list[dict]] = {}
    for item in verify_json(str(CASES), "--iterations", "15", "--jobs", "2"):
        by_file.setdefault(Path(item["filename"]).resolve().relative_to(CASES).as_posix(), []).append(item)
    return by_file


def _case_ids() -> list[str]:
    return [Path(p).resolve().relative_to(CASES).as_posix() for p in cases.discover(str(CASES))]


@torch_needed
@pytest.mark.parametrize("case", _case_ids())
def test_declared_test_case_holds(declared_cases: dict[str, list[dict]], case: str) -> None:
    """Each runnable case shows on real tensors what it declares (`# verify: leaks|flat`)."""
    items = declared_cases.get(case)
    assert items, f"{case} was not run"
    summary = [(i["code"], i["verdict"], i["slope_mib_per_iter"], i["note"], i["error"][-300:]) for i in items]
    assert items[0]["expectation_held"], (items[0]["expectation"], summary)


def test_verify_needs_paths() -> None:
    result = CliRunner().invoke(main, ["verify"])
    assert result.exit_code == 2
