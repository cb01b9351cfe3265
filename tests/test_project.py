"""Project-wide analysis: one file's findings depend on another file."""

from __future__ import annotations

import json
import os
import textwrap
from pathlib import Path

from click.testing import CliRunner
from samples import EMA, LEAKY_OPS, LEAKY_OPS_FIXED, POLICY_TRAIN, REWARDS

from memlint.cli import main
from memlint.config import load_settings

TRAIN = """
import torch
from {module} import {name}

def train(w, loader, opt):
    losses = []
    for x in loader:
        loss = {call}(x, w).sum()
        loss.backward()
        opt.step()
        losses.append(loss)
    return losses
"""


def lint(root: Path, *args: str) -> list[dict]:
    old = os.getcwd()
    os.chdir(root)
    try:
        result = CliRunner().invoke(main, ["--format", "json", *args, "."], catch_exceptions=False)
    finally:
        os.chdir(old)
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


def project(tmp_path: Path, ops: str, module: str, name: str, call: str) -> Path:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "ops.py").write_text(textwrap.dedent(ops))
    (tmp_path / "pkg" / "train.py").write_text(textwrap.dedent(TRAIN.format(module=module, name=name, call=call)))
    return tmp_path


def ml001(findings: list[dict]) -> dict:
    [finding] = [f for f in findings if f["code"] == "ML001"]
    return finding


def test_function_of_another_module_escalates_retained_graph(tmp_path: Path) -> None:
    root = project(tmp_path, LEAKY_OPS, "pkg.ops", "fused_matmul", "fused_matmul")
    finding = ml001(lint(root, "--no-cache"))
    assert finding["severity"] == "error"
    assert "`ContextMatmul`" in finding["message"] and os.path.join("pkg", "ops.py") in finding["message"]


def test_direct_apply_through_a_relative_import(tmp_path: Path) -> None:
    root = project(tmp_path, LEAKY_OPS, ".ops", "ContextMatmul", "ContextMatmul.apply")
    assert ml001(lint(root, "--no-cache"))["severity"] == "error"


def test_fixed_function_leaves_the_warning(tmp_path: Path) -> None:
    root = project(tmp_path, LEAKY_OPS_FIXED, "pkg.ops", "fused_matmul", "fused_matmul")
    finding = ml001(lint(root, "--no-cache"))
    assert finding["severity"] == "warning"
    assert "graph skeleton: about 0.5 KiB of device memory per iteration" in finding["message"]  # `.sum()`: 0-dim


def test_cache_follows_the_other_file(tmp_path: Path) -> None:
    root = project(tmp_path, LEAKY_OPS, "pkg.ops", "fused_matmul", "fused_matmul")
    assert ml001(lint(root))["severity"] == "error"
    (root / "pkg" / "ops.py").write_text(textwrap.dedent(LEAKY_OPS_FIXED))  # train.py itself is unchanged
    assert ml001(lint(root))["severity"] == "warning"
    (root / "pkg" / "ops.py").write_text(textwrap.dedent(LEAKY_OPS))
    assert ml001(lint(root))["severity"] == "error"


EVAL = """
def evaluate(model, loader):
    outs = []
    for x in loader:
        outs.append(model(x).argmax(-1).tolist())
    return outs
"""
CALLER = """
import torch
from evaluation import evaluate

def fit(model, loader):
    model.eval()  # a module: that `evaluate` runs one is no guess from a name
    with torch.no_grad():
        evaluate(model, loader)
"""


def test_eval_function_called_only_without_grad_elsewhere(tmp_path: Path) -> None:
    (tmp_path / "evaluation.py").write_text(EVAL)
    (tmp_path / "main.py").write_text(CALLER)
    assert [f["code"] for f in lint(tmp_path, "--no-cache")] == []
    (tmp_path / "other.py").write_text("from evaluation import evaluate\n\ndef run(m, l):\n    m.eval()\n    evaluate(m, l)\n")
    assert [f["code"] for f in lint(tmp_path, "--no-cache")] == ["ML003"]
    (tmp_path / "other.py").unlink()
    (tmp_path / "main.py").write_text(CALLER.replace("with torch.no_grad():\n        ", ""))
    assert [f["code"] for f in lint(tmp_path, "--no-cache")] == ["ML003"]


def test_what_other_files_hand_a_parameter_decides_a_model_run_by_its_name(tmp_path: Path) -> None:
    """`evaluate(model, loader)` runs `model` by its name alone: a module handed by another file shows
    the finding by default; a callable that is no module silences it; a value nothing shows leaves an
    assumption, shown with --preview only. Only the calling file changes; the cache follows it."""
    (tmp_path / "evaluation.py").write_text(EVAL)
    caller = "import torch\nfrom evaluation import evaluate\n\ndef run(loader, make):\n    evaluate({}, loader)\n"
    (tmp_path / "main.py").write_text(caller.format("torch.nn.Linear(4, 2)"))
    [shown] = lint(tmp_path)
    assert (shown["filename"], shown["code"]) == ("./evaluation.py", "ML003")
    assert "main.py hands `model` a model" in shown["hint"]
    (tmp_path / "main.py").write_text(caller.format("lambda x: x"))
    assert lint(tmp_path, "--preview") == []
    (tmp_path / "main.py").write_text(caller.format("make()"))
    assert lint(tmp_path) == []
    [assumed] = lint(tmp_path, "--preview")
    assert "assumed: `model` is a model" in assumed["hint"]


def test_a_file_no_rule_reads_still_answers_for_its_calls(tmp_path: Path) -> None:
    """main.py holds nothing any rule (or the project summary) looks for, so no rule runs on it; its
    construction of `Predictor` is still what decides whether `predict` runs a model: a module shows
    the finding by default, a plain function silences it even with --preview. Only main.py changes."""
    from memlint.analysis.project import SUMMARY_NEEDLES
    from memlint.rules import ALL_RULES
    from memlint.screen import needs_tree

    folder = Path(__file__).resolve().parent.parent / "test_cases" / "ML003_eval_without_no_grad"
    runner = (folder / "project_model_handed_by_a_file_no_rule_reads" / "runner.py").read_text(encoding="utf-8")
    (tmp_path / "runner.py").write_text(runner)
    caller = "import torch\n\nfrom runner import Predictor\n\nclassifier = Predictor({})\nprint(classifier)\n"
    for handed in ("torch.nn.Linear(8, 2)", "lambda x: x / 2"):
        text = caller.format(handed)
        assert not needs_tree(text, [r for r in ALL_RULES if r.may_apply(text)], SUMMARY_NEEDLES)
    (tmp_path / "main.py").write_text(caller.format("torch.nn.Linear(8, 2)"))
    [shown] = lint(tmp_path)
    assert (shown["filename"], shown["code"], shown["location"]["row"]) == ("./runner.py", "ML003", 11)
    assert "main.py hands `model` a model" in shown["hint"]
    (tmp_path / "main.py").write_text(caller.format("lambda x: x / 2"))
    assert lint(tmp_path, "--preview") == []
    (tmp_path / "main.py").unlink()  # no caller in sight: an assumption again
    assert lint(tmp_path) == [] and len(lint(tmp_path, "--preview")) == 1


def test_a_subclass_in_another_file_decides_its_base_class_template_call(tmp_path: Path) -> None:
    """`Agent.batch_act` calls `self.eval_step(batch)`, which `Agent` leaves to its subclasses: the
    finding at that call comes and goes with the override in seq2seq.py alone (a warm run too)."""
    folder = Path(__file__).resolve().parent.parent / "test_cases" / "ML003_eval_without_no_grad"
    bad = folder / "project_template_eval_step_overridden_in_other_file"
    (tmp_path / "agent.py").write_text((bad / "agent.py").read_text(encoding="utf-8"))
    subclass = (bad / "seq2seq.py").read_text(encoding="utf-8")
    (tmp_path / "seq2seq.py").write_text(subclass)
    [shown] = lint(tmp_path)
    assert (shown["filename"], shown["location"]["row"]) == ("./agent.py", 12)
    assert "a subclass's `eval_step` runs `self.model(batch.text)` (seq2seq.py:19)" in shown["hint"]
    (tmp_path / "seq2seq.py").write_text(subclass.replace("    def eval_step", "    @torch.no_grad()\n    def eval_step"))
    assert lint(tmp_path) == []
    (tmp_path / "seq2seq.py").write_text(subclass)
    assert [f["location"]["row"] for f in lint(tmp_path)] == [12]


EVAL_CALLED_HERE = EVAL + """

def test(model, loader, opt):
    with torch.no_grad():
        if opt.evaluate:  # an option named like the function: no reference to it
            evaluate(model, loader)
"""


def test_other_files_callers_with_grad_decide_a_function_called_here_without(tmp_path: Path) -> None:
    """A function whose calls in its own file all run under no_grad is evaluation with grad once
    another file calls it with grad on: only that file changes, the cache follows it."""
    (tmp_path / "evaluation.py").write_text("import torch\n" + EVAL_CALLED_HERE)
    (tmp_path / "main.py").write_text(CALLER)
    assert [f["code"] for f in lint(tmp_path)] == []
    (tmp_path / "main.py").write_text(CALLER.replace("with torch.no_grad():\n        ", ""))
    assert [(f["filename"], f["code"]) for f in lint(tmp_path)] == [("./evaluation.py", "ML003")]
    (tmp_path / "main.py").write_text(CALLER)
    assert [f["code"] for f in lint(tmp_path)] == []


COLLECTOR = """
def embed_all(model, loader):
    embeddings = []
    for x, _ in loader:
        embeddings.append(model(x))
    return embeddings
"""

EVALUATE = """
from embeddings import embed_all


def evaluate(model, loader):
    model.eval()
    return embed_all(model, loader)
"""

OUTER_CALLER = """
import torch
from evaluation import evaluate


def main(model, loader):
    with torch.no_grad():
        return evaluate(model, loader)
"""


def test_grad_mode_of_callers_in_other_files_flows_through_a_chain(tmp_path: Path) -> None:
    """A function whose every caller in other files runs it without grad runs without grad, and so
    do the functions it calls in turn: the outputs that `embed_all` collects carry no graph (ML005, no
    ML001 nor ML003) while main.py's call is under no_grad, and do once it is not (the cache follows)."""
    (tmp_path / "embeddings.py").write_text(COLLECTOR)
    (tmp_path / "evaluation.py").write_text(EVALUATE)
    (tmp_path / "main.py").write_text(OUTER_CALLER)
    assert [(f["filename"], f["code"]) for f in lint(tmp_path)] == [("./embeddings.py", "ML005")]
    (tmp_path / "main.py").write_text(OUTER_CALLER.replace("with torch.no_grad():\n        ", ""))
    assert sorted(f["code"] for f in lint(tmp_path)) == ["ML001", "ML003"]
    (tmp_path / "main.py").write_text(OUTER_CALLER)
    assert [(f["filename"], f["code"]) for f in lint(tmp_path)] == [("./embeddings.py", "ML005")]


ENV_HELPER = """
import os


def set_alloc_conf():
    os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"{comment}
"""

ALLOC_ENTRY = """
import torch

from envhelp import set_alloc_conf


def main():
{body}
"""


def alloc_project(tmp_path: Path, body: str, comment: str = "") -> list[dict]:
    (tmp_path / "envhelp.py").write_text(ENV_HELPER.format(comment=comment))
    (tmp_path / "train.py").write_text(ALLOC_ENTRY.format(body=textwrap.indent(body, "    ")))
    return lint(tmp_path)


def test_alloc_conf_set_by_a_helper_after_the_caller_used_cuda(tmp_path: Path) -> None:
    findings = alloc_project(tmp_path, "model = torch.nn.Linear(4, 4).cuda()\nset_alloc_conf()\n")
    (finding,) = [f for f in findings if f["code"] == "ML010"]
    assert finding["filename"].endswith("envhelp.py") and finding["location"]["row"] == 6
    assert "set_alloc_conf()" in finding["message"] and "train.py calls after its first CUDA use" in finding["message"]


def test_alloc_conf_set_by_a_helper_before_cuda_is_silent(tmp_path: Path) -> None:
    findings = alloc_project(tmp_path, "set_alloc_conf()\nmodel = torch.nn.Linear(4, 4).cuda()\n")
    assert not [f for f in findings if f["code"] == "ML010"]


def test_cross_file_alloc_conf_finding_can_be_suppressed(tmp_path: Path) -> None:
    body = "model = torch.nn.Linear(4, 4).cuda()\nset_alloc_conf()\n"
    assert not [f for f in alloc_project(tmp_path, body, "  # noqa: ML010") if f["code"] == "ML010"]


# -- value flow across files: a guess from a name is checked against the other file's summary ------

LOSSES = """
import torch.nn.functional as F


def compute_loss(logits, target):
    return F.cross_entropy(logits, target){suffix}
"""
METERS = """
class AverageMeter:
    def __init__(self):
        self.values = []

    def update(self, value, n=1):
        self.values.append({kept})
"""
STEP = """
from pkg.losses import compute_loss
from pkg.meters import AverageMeter


def train(model, optimizer, loader):
    history = []
    meter = AverageMeter()
    for x, y in loader:
        logits = model(x)
        loss = model.loss(logits, y)
        loss.backward()
        optimizer.step()
        history.append(compute_loss(logits, y))
        meter.update(loss)
    return history
"""


def flow_project(tmp_path: Path, suffix: str, kept: str) -> Path:
    (tmp_path / "pkg").mkdir(exist_ok=True)
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "losses.py").write_text(LOSSES.format(suffix=suffix))
    (tmp_path / "pkg" / "meters.py").write_text(METERS.format(kept=kept))
    (tmp_path / "pkg" / "train.py").write_text(STEP)
    return tmp_path


def ml001_rows(findings: list[dict]) -> dict[int, str]:
    return {f["location"]["row"]: f["message"] for f in findings if f["code"] == "ML001"}


def test_name_guesses_refuted_by_the_other_files_summaries(tmp_path: Path) -> None:
    """`compute_loss` of pkg/losses.py returns a float and `AverageMeter.update` keeps
    `float(value)`: the guesses from their names are dropped."""
    root = flow_project(tmp_path, ".item()", "float(value)")
    assert ml001_rows(lint(root, "--no-cache")) == {}


def test_name_guesses_confirmed_by_the_other_files_summaries(tmp_path: Path) -> None:
    """The same calls when the other files do return and keep the graph: found, and the
    message says which file showed it instead of what was assumed."""
    root = flow_project(tmp_path, "", "value")
    findings = lint(root, "--no-cache")
    rows = ml001_rows([f for f in findings if f["filename"].endswith("train.py")])
    assert set(rows) == {14, 15}
    # the meter's keep of the loss the loop hands it every step, in its own file too
    assert set(ml001_rows([f for f in findings if f["filename"].endswith("meters.py")])) == {7}
    hints = {f["location"]["row"]: f["hint"] for f in findings if f["code"] == "ML001" and f["filename"].endswith("train.py")}
    assert os.path.join("pkg", "losses.py") in hints[14] and "assumed" not in hints[14]
    assert "`AverageMeter.update`" in hints[15] and os.path.join("pkg", "meters.py") in hints[15]


def test_cache_follows_the_callee_file(tmp_path: Path) -> None:
    """A warm run re-reads the other file's summary: fixing the meter's `update` drops the finding."""
    root = flow_project(tmp_path, "", "value")
    assert set(ml001_rows(lint(root))) == {7, 14, 15}  # (7: the meter's keep, in pkg/meters.py)
    (root / "pkg" / "meters.py").write_text(METERS.format(kept="value.item()"))
    assert set(ml001_rows(lint(root))) == {14}


HISTORY = """
HISTORY = []


def record(value):
    HISTORY.append({kept})
"""
RECORDING_STEP = """
from pkg.history import record


def train(model, optimizer, loader):
    for x, y in loader:
        loss = model(x, y)
        loss.backward()
        optimizer.step()
        record(loss)
"""


def test_per_step_call_to_a_function_of_another_file_that_keeps_its_argument(tmp_path: Path) -> None:
    """`record(loss)` once per step: pkg/history.py's `record` appends its argument to a module-level
    list, so the loss outlives its iteration there; one that keeps `value.item()` is silent."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "history.py").write_text(HISTORY.format(kept="value"))
    (tmp_path / "pkg" / "train.py").write_text(RECORDING_STEP)
    findings = lint(tmp_path, "--no-cache")
    rows = ml001_rows([f for f in findings if f["filename"].endswith("train.py")])
    assert set(rows) == {10}
    assert "`record()`" in rows[10] and os.path.join("pkg", "history.py") in rows[10]
    # and at the keep, which names the call that hands it the loss
    kept = ml001_rows([f for f in findings if f["filename"].endswith("history.py")])
    assert set(kept) == {6} and os.path.join("pkg", "train.py") + ":10" in kept[6]
    (tmp_path / "pkg" / "history.py").write_text(HISTORY.format(kept="value.item()"))
    assert ml001_rows(lint(tmp_path, "--no-cache")) == {}




def reward_project(root: Path, suffix: str) -> Path:
    (root / "pkg").mkdir(exist_ok=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "rewards.py").write_text(REWARDS.format(suffix=suffix))
    (root / "pkg" / "train.py").write_text(POLICY_TRAIN)
    return root


def test_the_callers_analysis_reads_the_callees_summary(tmp_path: Path) -> None:
    """Only the callee's file changes between the runs: `get_reward` returning the output of the
    model it is handed makes the caller's `rewards.append(reward)` a leak (the callee's file has no
    loop, no needle of any rule: it is read for its summary alone); returning it detached and on the
    host does not (detached alone, the device tensors kept every step would still grow: ML005).
    Cold and warm (the cache keys the caller's findings by the facts it read)."""
    root = reward_project(tmp_path, "")
    for args in (["--no-cache"], [], []):
        [found] = lint(root, *args)
        assert (found["filename"], found["code"], found["location"]["row"]) == (os.path.join(".", "pkg", "train.py"), "ML001", 10)
        assert "`get_reward()` returns `model(batch)`" in found["hint"] and os.path.join("pkg", "rewards.py") in found["hint"]
    (root / "pkg" / "rewards.py").write_text(REWARDS.format(suffix=".detach()"))
    assert [f["code"] for f in lint(root)] == ["ML005"]
    (root / "pkg" / "rewards.py").write_text(REWARDS.format(suffix=".detach().cpu()"))
    for args in (["--no-cache"], [], []):
        assert lint(root, *args) == []
    (root / "pkg" / "rewards.py").write_text(REWARDS.format(suffix=""))
    assert [f["code"] for f in lint(root)] == ["ML001"]


def test_a_warm_run_over_the_files_of_a_settled_run_checks_no_answers(tmp_path: Path, monkeypatch) -> None:
    """The run that cached every file ended with every file's answers holding: a later run over the
    same files, unchanged, has none to check, and reports what it reported. A changed file, or a
    result put in the cache since (`--fix` puts those of the files it fixed), has them checked again."""
    import memlint.workers as workers
    from memlint.cache import CACHE_DIR, Cache, content_key

    root = reward_project(tmp_path, "")
    checked: list[str] = []
    real = workers._same_answers
    monkeypatch.setattr(workers, "_same_answers", lambda result, *rest: checked.append(result.path) or real(result, *rest))
    cold = lint(root)
    assert [f["code"] for f in cold] == ["ML001"] and checked
    checked.clear()
    assert lint(root) == cold and checked == []
    rewards = root / "pkg" / "rewards.py"
    rewards.write_text(rewards.read_text() + "# changed\n")
    assert lint(root) == cold and checked
    checked.clear()
    assert lint(root) == cold and checked == []
    settings = load_settings(start=root)
    cache = Cache(str(root / CACHE_DIR), settings.fingerprint())
    key = content_key(rewards.read_bytes(), settings.codes_for(str(rewards)))
    cache.put(str(rewards), key, *cache.get(str(rewards), key))  # the same results, put again
    cache.save()
    assert lint(root) == cold and checked


def test_a_warm_run_over_the_files_of_a_settled_run_reads_no_results(tmp_path: Path, monkeypatch) -> None:
    """A later run over the files of a settled run, unchanged, reports what it reported (with and
    without `--preview`) without reading any file's results from the cache; `--diff` (fixes) still
    gets the project index, made from them. A changed file has them read again."""
    from memlint.cache import Cache

    root = reward_project(tmp_path, "")
    cold = lint(root)
    read: list[str] = []
    real = Cache.get
    monkeypatch.setattr(Cache, "get", lambda self, path, key: read.append(path) or real(self, path, key))
    assert lint(root) == cold and [f["code"] for f in cold] == ["ML001"] and read == []
    assert lint(root, "--preview") == lint(root, "--preview", "--no-cache") and read == []

    def diff(*args: str) -> str:
        old = os.getcwd()
        os.chdir(root)
        try:
            return CliRunner().invoke(main, ["--diff", *args, "."], catch_exceptions=False).stdout
        finally:
            os.chdir(old)

    assert diff() == diff("--no-cache") and read
    read.clear()
    (root / "pkg" / "train.py").write_text(POLICY_TRAIN + "# changed\n")
    assert lint(root) == cold and read


def test_a_name_decides_nothing_where_the_project_defines_it(tmp_path: Path) -> None:
    """With the definitions in the project, their facts decide: `get_reward` returns a model's
    output, `compute_loss` a float. Without them, `get_reward(...)` says nothing and `compute_loss`
    is guessed from its name to return a loss with history, and the finding says so."""
    (tmp_path / "rewards.py").write_text(REWARDS.format(suffix="") + "\n\ndef compute_loss(x):\n    return float(x.sum())\n")
    (tmp_path / "train.py").write_text(
        POLICY_TRAIN.replace("pkg.rewards", "rewards").replace("get_reward\n", "compute_loss, get_reward\n")
        + "\n\ndef scores(model, loader):\n    kept = []\n    for x in loader:\n        out = model(x)\n"
        "        out.sum().backward()\n        kept.append(compute_loss(out))\n    return kept\n"
    )
    defined = lint(tmp_path, "--no-cache")
    assert [(f["filename"], f["location"]["row"]) for f in defined] == [(os.path.join(".", "train.py"), 10)]
    os.rename(tmp_path / "rewards.py", tmp_path / "elsewhere.txt")  # out of sight: names are all there is
    assert lint(tmp_path, "--no-cache") == []  # a guess: shown with --preview only
    guessed = lint(tmp_path, "--no-cache", "--preview")
    assert [f["location"]["row"] for f in guessed] == [19]
    assert "assumed from its name" in guessed[0]["hint"]


GUESSED = """\
from helpers import compute_loss


def train(model, loader, optimizer):
    history = []
    for x, y in loader:
        out = model(x)
        out.sum().backward()
        optimizer.step()
        history.append(compute_loss(out, y))
    return history
"""


def test_a_finding_that_rests_on_a_guess_is_shown_with_preview_only(tmp_path: Path) -> None:
    """`compute_loss` is defined nowhere in the project: that it returns a loss with history is a
    guess from its name. A default run hides the finding and says so; `--preview` (or
    `preview = true`) shows it with what was assumed; a definition in the project decides."""
    (tmp_path / "train.py").write_text(GUESSED)
    old = os.getcwd()
    os.chdir(tmp_path)
    try:
        quiet = CliRunner().invoke(main, ["--no-cache", "."], catch_exceptions=False)
    finally:
        os.chdir(old)
    assert quiet.exit_code == 0 and "All checks passed" in quiet.stdout
    assert "1 more finding rests on guesses about code out of sight; `--preview` shows them" in quiet.stderr
    [shown] = lint(tmp_path, "--no-cache", "--preview")
    assert shown["code"] == "ML001" and "assumed from its name" in shown["hint"]
    (tmp_path / "pyproject.toml").write_text("[tool.memlint]\npreview = true\n")
    assert [f["code"] for f in lint(tmp_path, "--no-cache")] == ["ML001"]
    (tmp_path / "helpers.py").write_text("def compute_loss(out, y):\n    return (out - y).pow(2).mean()\n")
    (tmp_path / "pyproject.toml").write_text("[tool.memlint]\n")
    [found] = lint(tmp_path, "--no-cache")
    assert "assumed" not in found["hint"] and "helpers.py" in found["hint"]


def test_a_model_handed_by_callers_out_of_sight_is_an_assumption(tmp_path: Path) -> None:
    """ML019 on a model the function is handed, with no caller in its file: whether an optimizer gets
    its parameters is the callers' to say, so a default run hides the finding and `--preview` shows it
    with what was assumed. A caller in the same file that builds the optimizer over the model decides."""
    folder = Path(__file__).resolve().parent.parent / "test_cases" / "ML019_frozen_model_with_grad"
    engine = (folder / "project_model_handed_by_other_file" / "engine.py").read_text(encoding="utf-8")
    (tmp_path / "engine.py").write_text(engine)
    assert lint(tmp_path, "--no-cache") == []
    [shown] = lint(tmp_path, "--no-cache", "--preview")
    assert (shown["code"], shown["location"]["row"]) == ("ML019", 9)
    assert "assumed: the callers of `train_one_epoch`, not in this file" in shown["hint"]
    caller = (
        "\n\ndef main(loader, backbone, head, criterion):\n"
        "    optimizer = torch.optim.SGD([*backbone.parameters(), *head.parameters()], lr=0.1)\n"
        "    train_one_epoch(loader, backbone, head, criterion, optimizer)\n"
    )
    (tmp_path / "engine.py").write_text("import torch\n" + engine + caller)
    assert lint(tmp_path, "--no-cache", "--preview") == []


def test_the_callee_is_analysed_before_its_caller(tmp_path: Path, monkeypatch) -> None:
    """The first phase takes a file after the files it imports from: the caller's one analysis
    already has `get_reward`'s facts (it is parsed, translated and analysed once)."""
    import memlint.engine as engine

    root = reward_project(tmp_path, "")
    caller = (root / "pkg" / "train.py").read_text()
    analysed: list[str] = []
    real = engine._analyse_light
    monkeypatch.setattr(engine, "_analyse_light", lambda tree, text, *rest: analysed.append(text) or real(tree, text, *rest))
    assert [f["code"] for f in lint(root, "--no-cache")] == ["ML001"] and analysed.count(caller) == 1


def test_the_second_phase_analyses_the_tree_the_first_kept(tmp_path: Path, monkeypatch) -> None:
    """A caller analysed before its callee (the two files import each other, and the first phase
    starts from the bigger, the callee) is analysed again with `get_reward`'s facts, but parsed and
    translated once: its first analysis asked about a name the project's `pkg` may define, so its
    light tree stayed for the second. The same findings without the kept tree."""
    import memlint.engine as engine
    import memlint.workers as workers

    root = reward_project(tmp_path, "")
    rewards = root / "pkg" / "rewards.py"
    rewards.write_text(f"from pkg.train import train\n{'#' * 1000}\n{rewards.read_text()}")
    caller = (root / "pkg" / "train.py").read_text()
    translated: list[str] = []
    real = engine.light_module
    monkeypatch.setattr(engine, "light_module", lambda tree, text: translated.append(text) or real(tree, text))
    analysed: list[str] = []
    real_analyse = engine._analyse_light
    monkeypatch.setattr(engine, "_analyse_light", lambda tree, text, *rest: analysed.append(text) or real_analyse(tree, text, *rest))
    kept = lint(root, "--no-cache")
    assert [f["code"] for f in kept] == ["ML001"] and translated.count(caller) == 1 and analysed.count(caller) == 2
    assert not engine._kept_trees.trees  # forgotten with the run
    translated.clear()
    monkeypatch.setattr(workers, "KEPT_SOURCE_BYTES", 0)
    assert lint(root, "--no-cache") == kept and translated.count(caller) == 2


def test_later_indexes_of_a_run_reuse_where_names_are_defined_unless_imports_changed(tmp_path: Path) -> None:
    from memlint.project_index import Located, ProjectIndex

    train, ops, other = (str(tmp_path / name) for name in ("train.py", "ops.py", "other.py"))
    summaries = {train: {"imports": {"step": [0, "ops.step"]}}, ops: {}, other: {}}
    located = Located()
    assert ProjectIndex(summaries, tmp_path, located).locate(train, "step") == (ops, "step")
    # the same imports: the answer is kept; the file now imports `step` from elsewhere: found again
    assert ProjectIndex(dict(summaries), tmp_path, located).locate(train, "step") == (ops, "step")
    summaries[train] = {"imports": {"step": [0, "other.step"]}}
    assert ProjectIndex(summaries, tmp_path, located).locate(train, "step") == (other, "step")
    # another set of files: nothing is kept
    del summaries[other]
    assert ProjectIndex(summaries, tmp_path, located).locate(train, "step") is None


def test_a_files_answers_tell_which_facts_would_change_its_analysis(tmp_path: Path) -> None:
    """The summary keeps every answer the analysis was given: facts that give them all again (here
    facts of names it never looked up) make the same results, so a project's next round skips the
    file; facts of `fit` answer differently, and the file is analysed again."""
    from memlint.analysis.flow.project_facts import ProjectFacts
    from memlint.analysis.questions import ANSWERS, same_answers
    from memlint.engine import lint_path
    from memlint.rules import ALL_RULES

    codes = [rule.code for rule in ALL_RULES]
    train = tmp_path / "train.py"
    train.write_text(
        "import torch\nfrom stats import fit\n\n\ndef run(model, loader, opt, epochs):\n"
        "    for epoch in range(epochs):\n        fit(model, loader, opt)\n        torch.cuda.empty_cache()\n"
    )
    alone = lint_path(str(train), codes)
    answers = alone.summary[ANSWERS]
    assert ["trains", "fit", False] in answers
    unrelated = {"evaluate": {"runs": ["model"], "params": ["model"], "file": "stats.py"}}
    fit = {"fit": {"runs": ["model"], "trains": True, "params": ["model", "loader", "opt"], "file": "stats.py"}}
    assert same_answers(answers, unrelated) and not same_answers(answers, fit)
    again = lint_path(str(train), codes, ProjectFacts(unrelated))
    assert (again.findings, again.summary) == (alone.findings, alone.summary)
    assert lint_path(str(train), codes, ProjectFacts(fit)).summary[ANSWERS] != answers


def test_config_named_through_a_link_or_a_relative_path_gives_the_real_root(tmp_path: Path) -> None:
    """Files are found by their real paths and named as modules relative to the project's root, the
    configuration file's folder: named through a symbolic link or by a relative path, the root must be
    the same real folder, or no file's module name matches an import and other files' facts are lost."""
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "pyproject.toml").write_text("[tool.memlint]\n")
    (tmp_path / "link").symlink_to(tmp_path / "real", target_is_directory=True)
    old = os.getcwd()
    os.chdir(tmp_path / "real")
    try:
        for config in (tmp_path / "link" / "pyproject.toml", Path("pyproject.toml")):
            assert load_settings(config_file=config).root == (tmp_path / "real").resolve(), config
    finally:
        os.chdir(old)


def test_an_output_a_callee_of_another_file_keeps_is_detached_where_it_is_handed_not_moved(tmp_path: Path) -> None:
    """`mae(out, y)` runs `MeanAbsoluteError.forward` (metrics.py), which computes with `out` beside
    the target it is handed: the fix frees the graph and leaves the output on its device, where a
    move to the host would make the metric subtract across devices (and no `.item()` is offered for
    a whole output)."""
    case = Path(__file__).resolve().parent.parent / "test_cases" / "ML001_retained_graph"
    for name in ("metrics.py", "train.py"):
        source = (case / "project_called_metric_object_keeps_inputs" / name).read_text(encoding="utf-8")
        (tmp_path / name).write_text(source)
    shown = {f["location"]["row"]: f for f in lint(tmp_path, "--no-cache", "--select", "ML001")}
    assert sorted(shown) == [22, 24]
    for finding in shown.values():
        assert [edit["content"] for edit in finding["fix"]["edits"]] == ["out.detach()"]
        assert finding["hint"].startswith("store `out.detach()` (`") and ".item()" not in finding["hint"]


def test_a_helper_that_backwards_a_loss_of_its_argument_frees_the_callers_graph(tmp_path: Path) -> None:
    """`regress(pred, y, opt)` in another file backwards `F.mse_loss(pred, y)`: the caller's kept
    `pred` holds its output, not an activation graph never backwarded. A helper that hands its
    argument to a callable that is no known loss (`energy_fn(pos)`) says nothing of it."""
    (tmp_path / "steps.py").write_text(textwrap.dedent("""
        import torch.nn.functional as F

        def regress(pred, target, optimizer):
            F.mse_loss(pred, target).backward()
            optimizer.step()
    """))
    (tmp_path / "train.py").write_text(textwrap.dedent("""
        from steps import regress

        def fit(model, loader, optimizer):
            kept = []
            for x, y in loader:
                pred = model(x)
                regress(pred, y, optimizer)
                kept.append(pred)
            return kept
    """))
    found = ml001(lint(tmp_path, "--no-cache"))
    assert "holds a whole model output" in found["message"] and "never backwarded" not in found["message"]
    (tmp_path / "steps.py").write_text((tmp_path / "steps.py").read_text().replace("F.mse_loss", "energy_fn"))
    assert "never backwarded" in ml001(lint(tmp_path, "--no-cache"))["message"]


def test_a_method_that_another_file_calls_every_step_keeps_across_steps(tmp_path: Path) -> None:
    """Only the caller's file changes between the runs: `ema.update(model)` in a training loop of
    train.py makes `EMA.update` (ema.py, no loop of steps of its own) run once per step, so the
    average it computes from the parameters chains a graph every step; called once after training,
    it does not. Cold and warm (the callee's findings are kept by what other files say of it)."""
    (tmp_path / "ema.py").write_text("\n" + EMA)
    train = textwrap.dedent("""
        from ema import EMA

        def train(model, loader, optimizer):
            ema = EMA(model)
            for x in loader:
                model(x).mean().backward()
                optimizer.step()
                ema.update(model)
            return ema
    """)
    (tmp_path / "train.py").write_text(train)
    for args in (["--no-cache"], [], []):
        [found] = lint(tmp_path, *args)
        assert (found["filename"], found["code"], found["location"]["row"]) == (os.path.join(".", "ema.py"), "ML001", 9)
        assert "the graph grows every call" in found["message"]
    (tmp_path / "train.py").write_text(train.replace("        ema.update(model)\n", "").replace("    return ema", "    ema.update(model)\n    return ema"))
    for args in (["--no-cache"], [], []):
        assert lint(tmp_path, *args) == []
    (tmp_path / "train.py").write_text(train)
    assert [f["code"] for f in lint(tmp_path)] == ["ML001"]


def test_a_warm_run_analyses_no_file_again_where_other_files_call_its_functions(tmp_path: Path, monkeypatch) -> None:
    """How other files call a file's functions (with grad on, every step) is one answer object per
    question for a whole run: the rounds that compare a file's answers key them by it. A warm run of
    an unchanged project then finds every answer as it was, and analyses no file again."""
    import memlint.workers as workers
    from memlint.analysis.questions import CALLERS
    from memlint.project_index import ProjectIndex

    (tmp_path / "ema.py").write_text(EMA + "\n\ndef evaluate(model, x):\n    return model(x).argmax(1)\n")
    (tmp_path / "train.py").write_text(textwrap.dedent("""
        from ema import EMA, evaluate

        def train(model, loader, optimizer):
            ema = EMA(model)
            for x in loader:
                model(x).mean().backward()
                optimizer.step()
                ema.update(model)
                evaluate(model, x)
            return ema
    """))
    assert [f["code"] for f in lint(tmp_path)] == ["ML001"]
    analysed = []
    job = workers._lint_job
    monkeypatch.setattr(workers, "_lint_job", lambda item, *rest: analysed.append(item[0]) or job(item, *rest))
    assert [f["code"] for f in lint(tmp_path)] == ["ML001"]
    assert analysed == []
    index = ProjectIndex({"ema.py": {}, "train.py": {"per_step_calls": ["EMA.update"], "imports": {"EMA": [0, "ema.EMA"]}}}, tmp_path)
    entry = index.fact("ema.py", f"{CALLERS}EMA.update")
    assert entry == {"per_step": True} and index.fact("ema.py", f"{CALLERS}EMA.update") is entry


def test_an_entry_of_a_parameter_bound_to_itself_is_summarised(tmp_path: Path) -> None:
    """`defaults = defaults` reaches itself: following the name's bindings to read one of its entries
    for the function's summary stops there, where it recursed without end."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "config.py").write_text(
        "def resolve_config(args, defaults={}, model=None):\n"
        "    config = {}\n"
        "    defaults = defaults\n"
        "    if not defaults and model is not None:\n"
        "        defaults = model.default_cfg\n"
        '    config["input_size"] = defaults["input_size"]\n'
        "    return config\n"
    )
    (tmp_path / "pkg" / "data.py").write_text(
        "from pkg.config import resolve_config\n\n\ndef build(args, model):\n"
        '    return resolve_config(args, model=model)["input_size"]\n'
    )
    assert lint(tmp_path, "--no-cache") == []
