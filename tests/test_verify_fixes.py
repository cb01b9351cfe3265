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


# -- every fix of a runnable test case, run ---------------------------------------
CASES = Path(__file__).resolve().parent.parent / "test_cases"
def _fixed_runnable_cases() -> list[Path]:
    from memlint.verify import cases

    return [Path(p).with_name(Path(p).name[: -len(".py")] + ".fixed.py") for p in cases.discover(str(CASES))
            if Path(p).with_name(Path(p).name[: -len(".py")] + ".fixed.py").exists()]


@pytest.fixture(scope="module")
def fixed_runs() -> dict[str, list[dict]]:
    """Each runnable case's fixed output (what `--fix --unsafe-fixes` writes, checked
    against the case by test_fixes.py), run to its end: -n is beyond every case's loop."""
    if __import__("importlib").util.find_spec("torch") is None:
        pytest.skip("needs torch")
    paths = [str(p) for p in _fixed_runnable_cases()]
    by_file: dict[str, list[dict]] = {}
    for item in verify_json("-n", "1000", "-j", "2", "--timeout", "120", *paths):
        by_file.setdefault(Path(item["filename"]).resolve().relative_to(CASES).as_posix(), []).append(item)
    return by_file


@torch_needed
@pytest.mark.parametrize("case", [p.relative_to(CASES).as_posix() for p in _fixed_runnable_cases()])
def test_fixed_case_runs_to_the_end_and_stays_flat(fixed_runs: dict[str, list[dict]], case: str) -> None:
    """The bad case leaks (test_verify.py runs it as written); its fixed output ends normally
    and no tracked tensor grows (on CPU what the fix moved to the host is host memory, as on a
    GPU: `torch.cat` of collected CPU tensors too)."""
    items = fixed_runs.get(case)
    assert items, f"{case} was not run"
    for item in items:
        assert item["verdict"] != "error" and not item["error"], (item["note"], item["error"][-600:])
        assert item["verdict"] != "not_reached", item["note"]
        assert item["verdict"] != "confirmed", (item["code"], item["slope_mib_per_iter"], item["note"])


# -- fixes that remove the memory, planned together --------------------------------
def _lint(text: str):
    from memlint.engine import lint_source
    from memlint.rules import ALL_RULES

    return lint_source(textwrap.dedent(text), "t.py", [r.code for r in ALL_RULES])[0]


def _fix(text: str):
    from memlint.fixes import fix_source
    from memlint.rules import ALL_RULES

    return fix_source(textwrap.dedent(text), "t.py", [r.code for r in ALL_RULES] + ["ML000"], unsafe=True)


def test_a_kept_device_output_leaves_the_device_and_a_scalar_is_detached() -> None:
    text = """\
    import torch
    import torch.nn.functional as F


    def train(model, loader, optimizer):
        outs, losses = [], []
        for x, y in loader:
            out = model(x)
            loss = F.cross_entropy(out, y)
            loss.backward()
            optimizer.step()
            outs.append(out)
            losses.append(loss)
        return outs, losses
    """
    by_row = {f.location.row: f for f in _lint(text) if f.code == "ML001"}
    moved, detached = by_row[12].fix, by_row[13].fix
    assert [e.content for e in moved.edits] == ["out.detach().cpu()"]
    assert moved.applicability.value == "unsafe"  # a move off the device: code after may need the device
    assert [e.content for e in detached.edits] == ["loss.detach()"]
    assert detached.applicability.value == "safe"  # a loss is surely a tensor and stays where it is


def test_the_no_grad_fix_is_offered_with_the_finding_it_makes_appear() -> None:
    """`no_grad` turns the kept outputs into ML005: the two edits are applied as one, not refused."""
    result = _fix(
        """\
        import torch


        def evaluate(model, loader):
            model.eval()
            all_logits = []
            for images, labels in loader:
                all_logits.append(model(images.cuda()))
            return torch.cat(all_logits)
        """
    )
    assert "@torch.no_grad()" in result.text and "model(images.cuda()).detach().cpu()" in result.text, result.text
    assert sorted(f.code for f in result.applied) == ["ML003", "ML005"]
    assert not result.rejected and not result.findings


def test_values_compared_after_the_loop_move_together() -> None:
    text = (CASES / "ML003_eval_without_no_grad" / "bad_eval_logits_labels_compared.py").read_text()
    stores = [f for f in _lint(text) if f.code == "ML005"]  # one finding per kept store: logits, labels
    assert len(stores) == 2
    for store in stores:
        assert sorted(e.content for e in store.fix.edits) == ["labels.detach().cpu()", "logits.detach().cpu()"]
    fixed = _fix(text).text
    assert "all_logits.append(logits.detach().cpu())" in fixed and "all_labels.append(labels.detach().cpu())" in fixed


def test_values_never_combined_move_alone() -> None:
    findings = _lint(
        """\
        import torch


        @torch.no_grad()
        def evaluate(model, loader):
            preds, targets = [], []
            for x, y in loader:
                preds.append(model(x.cuda()))
                targets.append(y.cuda())
            torch.save(torch.cat(preds), "preds.pt")
            return torch.cat(targets)
        """
    )
    assert sorted(len(f.fix.edits) for f in findings if f.code == "ML005") == [1, 1]


def test_a_module_output_built_from_the_collected_chunks_is_not_moved() -> None:
    text = (CASES / "ML001_retained_graph" / "bad_chunked_forward_chunks_kept_on_self.py").read_text()
    (finding,) = [f for f in _lint(text) if f.code == "ML001"]
    assert finding.fix is None or not finding.fix.edits


# -- --compare-fix through a command, on a framework's hooks ---------------------------
FRAMEWORK = {
    "pkg/__init__.py": "",
    "pkg/loop.py": '''\
        """A minimal framework: it calls the module's training_step once per batch, as Lightning does."""
        import torch


        def fit(module, batches):
            optimizer = torch.optim.SGD(module.parameters(), lr=0.01)
            for batch_idx, batch in enumerate(batches):
                loss = module.training_step(batch, batch_idx)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            return module
        ''',
    "pkg/model.py": '''\
        import torch
        import torch.nn.functional as F

        try:
            from lightning.pytorch import LightningModule
        except ImportError:
            LightningModule = torch.nn.Module


        class Classifier(LightningModule):
            def __init__(self):
                super().__init__()
                self.net = torch.nn.Linear(64, 1024)
                self.train_logits = []

            def training_step(self, batch, batch_idx):
                x, y = batch
                logits = self.net(x)
                loss = F.cross_entropy(logits, y)
                self.train_logits.append(logits)
                return loss
        ''',
    "pkg/train.py": '''\
        import torch

        from pkg.loop import fit
        from pkg.model import Classifier

        if __name__ == "__main__":
            batches = [(torch.randn(512, 64), torch.randint(0, 1024, (512,))) for _ in range(30)]
            module = fit(Classifier(), batches)
            print(len(module.train_logits))
        ''',
}


def _project(root: Path, files: dict[str, str]) -> None:
    for name, body in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(body))


@torch_needed
def test_compare_fix_through_a_command_on_a_framework_hook(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    _project(tmp_path, FRAMEWORK)
    monkeypatch.chdir(tmp_path)
    before = (tmp_path / "pkg" / "model.py").read_text()
    result = CliRunner().invoke(main, ["verify", "--device", "cpu", "-n", "8", "--timeout", "120", "--compare-fix",
                                       "--format", "json", "--", sys.executable, "-m", "pkg.train"],
                                catch_exceptions=False)
    [item] = json.loads(result.stdout)
    assert item["code"] == "ML001" and item["site_kind"] == "call", item
    assert item["verdict"] == "confirmed" and item["slope_mib_per_iter"] == pytest.approx(2.0, rel=0.05), item
    after = item["after_fix"]
    assert after["verdict"] == "not_confirmed" and abs(after["slope_mib_per_iter"]) < 0.01, after
    assert item["fix_result"] == "fixed"
    assert (tmp_path / "pkg" / "model.py").read_text() == before  # fixed in memory only
    assert result.exit_code == 1


@torch_needed
def test_compare_fix_reports_a_fix_that_breaks_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fix whose result raises after the loop (here a check in the script that the logits
    are still on the model's device) is reported as such, with the error."""
    import sys

    files = dict(FRAMEWORK)
    files["pkg/train.py"] = '''\
        import torch

        from pkg.loop import fit
        from pkg.model import Classifier

        if __name__ == "__main__":
            batches = [(torch.randn(512, 64), torch.randint(0, 1024, (512,))) for _ in range(30)]
            module = fit(Classifier(), batches)
            if module.train_logits[-1].requires_grad is False:
                raise RuntimeError("the logits lost their graph")
        '''
    _project(tmp_path, files)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["verify", "--device", "cpu", "-n", "8", "--timeout", "120", "--compare-fix",
                                       "--format", "json", "--", sys.executable, "-m", "pkg.train"],
                                catch_exceptions=False)
    [item] = json.loads(result.stdout)
    assert item["verdict"] == "confirmed", item
    assert item["fix_result"].startswith("the fix broke the run: RuntimeError: the logits lost their graph"), item


# -- a verdict per finding -------------------------------------------------------------
TWO_FINDINGS = """\
    import torch

    model = torch.nn.Linear(64, 1024)
    loader = [(torch.randn(512, 64), torch.randint(0, 1024, (512,))) for _ in range(40)]
    all_logits, all_labels = [], []
    with torch.no_grad():
        for x, y in loader:
            all_logits.append(model(x))
            all_labels.append(y)
"""


@torch_needed
def test_two_findings_in_one_loop_get_their_own_verdicts(tmp_path: Path) -> None:
    """The logits (2 MiB a batch) leak; the labels beside them keep 4 KiB a batch: only the
    logits are confirmed, each with its own slope."""
    items = {i["message"].split("`")[1]: i for i in verify_json(str(write(tmp_path, "two.py", TWO_FINDINGS)))}
    assert set(items) == {"model(x)", "y"}, items
    assert items["model(x)"]["verdict"] == "confirmed"
    assert items["model(x)"]["slope_mib_per_iter"] == pytest.approx(2.0, rel=0.05)
    assert items["y"]["verdict"] == "not_confirmed", items["y"]
    assert items["y"]["slope_mib_per_iter"] < 0.01


# -- the report: paths, allocation lines, nothing to verify -----------------------------
def test_frames_are_never_printed_absolute(tmp_path: Path) -> None:
    from memlint.verify.report import display_path

    project = tmp_path / "proj"
    installed = tmp_path / "env" / "lib" / "python3.12" / "site-packages" / "lightning" / "pytorch" / "core" / "module.py"
    target = tmp_path / "lsite" / "lightning" / "pytorch" / "core" / "module.py"
    for path in (installed, target):
        path.parent.mkdir(parents=True)
        for parent in (path.parent, path.parent.parent, path.parent.parent.parent):
            (parent / "__init__.py").write_text("")
        path.write_text("")
    project.mkdir()
    assert display_path(str(project / "pkg" / "train.py"), str(project)) == "pkg/train.py"
    assert display_path(str(installed), str(project)) == "site-packages/lightning/pytorch/core/module.py"
    assert display_path(str(target), str(project)) == "lightning/pytorch/core/module.py"


def test_nothing_to_verify_is_a_json_object_that_says_why(tmp_path: Path) -> None:
    script = write(tmp_path, "clean.py", "print('no loop')\n")
    result = CliRunner().invoke(main, ["verify", "--device", "cpu", "--format", "json", str(script)])
    data = json.loads(result.stdout)
    assert data["items"] == [] and data["reason"].startswith("nothing to verify"), data
    assert result.exit_code == 0


@torch_needed
def test_allocation_lines_are_only_what_grows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The step's gradients (re-made each step, alive at its end) are no allocation line;
    the lines add up to no more than the slope."""
    import sys

    _project(tmp_path, FRAMEWORK)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["verify", "--device", "cpu", "-n", "8", "--timeout", "120", "--format", "json",
                                       "--", sys.executable, "-m", "pkg.train"], catch_exceptions=False)
    [item] = json.loads(result.stdout)
    lines = item["allocations"]
    assert lines and lines[0]["file"].endswith("model.py") and lines[0]["line"] == 18, lines
    assert sum(a["mib_per_iter"] for a in lines) <= item["slope_mib_per_iter"] * 1.05
    assert not any(a["function"] == "fit" for a in lines), lines  # the optimizer's step: no growth


@torch_needed
def test_a_list_extended_with_plus_equals_is_measured_at_its_loop(tmp_path: Path) -> None:
    body = TWO_FINDINGS.replace("all_logits.append(model(x))", "all_logits += [model(x)]")
    items = {i["message"].split("`")[1]: i for i in verify_json(str(write(tmp_path, "plus.py", body)))}
    assert items["[model(x)]"]["verdict"] == "confirmed" and not items["[model(x)]"]["error"], items


# -- a loop run many times inside one step ------------------------------------------------
@torch_needed
def test_decode_loop_under_autocast_growth_per_step_and_peak_after_the_fix() -> None:
    """fig4: a decode loop inside autocast(cache_enabled=False): the weight casts grow per
    decode step; after the fix (the cache on) the growth is gone and the peak is lower. The
    script never differentiates, so the decoded state carries every step's graph into the next
    (ML006): confirmed too, and gone under `no_grad`."""
    script = Path(__file__).resolve().parent.parent / "benchmarks" / "verify_figures" / "fig4_autocast_decode.py"
    item, carried = verify_json("-n", "10", "--compare-fix", str(script))
    assert item["code"] == "ML002" and item["verdict"] == "confirmed", item
    assert carried["code"] == "ML006" and carried["verdict"] == "confirmed" and carried["fix_result"] == "fixed", carried
    assert item["slope_mib_per_iter"] == pytest.approx(8.0, rel=0.05)
    after = item["after_fix"]
    assert item["fix_result"] == "fixed" and after["peak_mib"] < item["peak_mib"] / 2, (item["peak_mib"], after["peak_mib"])
    result = CliRunner().invoke(main, ["verify", "--device", "cpu", "-n", "10", "--compare-fix", str(script)])
    assert ", peak " in result.output and "(fixed)" in result.output, result.output
