"""The shared semantic model, asked directly: grad mode, provenance, loops, imports."""

from __future__ import annotations

import textwrap
from pathlib import Path

import libcst as cst
import pytest

from memlint.analysis import SemanticModel
from memlint.analysis.syntax.expressions import code
from memlint.analysis.regions.grad import Grad


def model_of(source: str, path: str = "train.py") -> SemanticModel:
    return SemanticModel(cst.parse_module(textwrap.dedent(source)), path)


def call_named(model: SemanticModel, text: str) -> cst.Call:
    """The first call whose source starts with `text`."""
    for call in model.tree.by_type[cst.Call]:
        if code(call).startswith(text):
            return call
    raise AssertionError(f"no call {text!r}")


def statement(model: SemanticModel, text: str) -> cst.CSTNode:
    for kind in (cst.Expr, cst.Assign, cst.AugAssign):
        for node in model.tree.by_type.get(kind, ()):
            if code(node).strip().startswith(text):
                return node
    raise AssertionError(f"no statement {text!r}")


# -- imports -----------------------------------------------------------------


def test_a_context_manager_that_enters_itself_sets_no_grad_mode() -> None:
    """TensorFlow-slim's nesting scope helpers: a `@contextmanager` that yields inside a `with`
    on itself. What it sets is read once (it recursed without end), and it sets nothing."""
    model = model_of(
        """
        import contextlib

        @contextlib.contextmanager
        def arg_scope(depth):
            if depth:
                with arg_scope(depth - 1):
                    yield
            else:
                yield

        def run(model, x):
            with arg_scope(2):
                return model(x)
        """
    )
    assert model.grad.effect(call_named(model, "arg_scope(2)")) is None


def test_imports_resolve_aliases() -> None:
    model = model_of(
        """
        import torch as T
        import torch.nn.functional as F
        from torch import autocast
        from torch.cuda import empty_cache as ec
        T.cuda.empty_cache(); F.cross_entropy(a, b); autocast("cuda"); ec()
        """
    )
    resolve = model.imports.resolve
    assert resolve(call_named(model, "T.cuda").func) == "torch.cuda.empty_cache"
    assert resolve(call_named(model, "F.cross").func) == "torch.nn.functional.cross_entropy"
    assert resolve(call_named(model, "autocast").func) == "torch.autocast"
    assert resolve(call_named(model, "ec").func) == "torch.cuda.empty_cache"


# -- grad mode -----------------------------------------------------------------


@pytest.mark.parametrize(
    "source, expected",
    [
        ("with torch.no_grad():\n    TARGET()\n", Grad.OFF),
        ("with torch.inference_mode():\n    TARGET()\n", Grad.OFF),
        ("with torch.inference_mode(False):\n    TARGET()\n", Grad.ON),
        ("with torch.set_grad_enabled(False):\n    TARGET()\n", Grad.OFF),
        ("with torch.set_grad_enabled(is_train):\n    TARGET()\n", Grad.MAYBE),
        ("with torch.no_grad():\n    with torch.enable_grad():\n        TARGET()\n", Grad.ON),
        ("torch.set_grad_enabled(False)\nTARGET()\n", Grad.OFF),
        ("TARGET()\ntorch.set_grad_enabled(False)\n", Grad.ON),
        ("@torch.no_grad()\ndef f():\n    TARGET()\n", Grad.OFF),
        ("@torch.inference_mode()\ndef f():\n    TARGET()\n", Grad.OFF),
        ("@torch.no_grad\ndef f():\n    TARGET()\n", Grad.OFF),
        ("class M(L.LightningModule):\n    def validation_step(self, b, i):\n        TARGET()\n", Grad.OFF),
        ("class M(L.LightningModule):\n    def training_step(self, b, i):\n        TARGET()\n", Grad.ON),
        ("def f():\n    TARGET()\n", Grad.ON),
        # only called from no-grad code in this file
        ("def f():\n    TARGET()\nwith torch.no_grad():\n    f()\n", Grad.OFF),
        # transitively
        ("def g():\n    TARGET()\ndef f():\n    g()\nwith torch.no_grad():\n    f()\n", Grad.OFF),
        # one call under grad is enough to keep grad on
        ("def f():\n    TARGET()\nwith torch.no_grad():\n    f()\nf()\n", Grad.ON),
        # passed as a callback: its callers are unknown
        ("def f():\n    TARGET()\nwith torch.no_grad():\n    f()\nrun(f)\n", Grad.ON),
        ("class A:\n    def f(self):\n        TARGET()\n    @torch.no_grad()\n    def g(self):\n        self.f()\n", Grad.OFF),
        # a context entered on an ExitStack lasts for the rest of the stack's `with`
        ("with ExitStack() as stack:\n    stack.enter_context(torch.no_grad())\n    TARGET()\n", Grad.OFF),
        ("with ExitStack() as stack:\n    stack.enter_context(torch.inference_mode())\n    TARGET()\n", Grad.OFF),
        ("with ExitStack() as stack:\n    TARGET()\n    stack.enter_context(torch.no_grad())\n", Grad.ON),
        ("with ExitStack() as stack:\n    stack.enter_context(open(p))\n    TARGET()\n", Grad.ON),
        # a closure whose factory's results are only called: its callers are known
        ("def make():\n    def inner():\n        TARGET()\n    return inner\nfn = make()\nwith torch.no_grad():\n    fn()\n", Grad.OFF),
        ("def make():\n    def inner():\n        TARGET()\n    return inner\ndef run(f):\n    with torch.no_grad():\n        f()\nrun(make())\n", Grad.ON),
        ("def make():\n    def inner():\n        TARGET()\n    return inner\ndef run(f):\n    with torch.no_grad():\n        f()\nfn = make()\nrun(fn)\n", Grad.OFF),
        ("def make():\n    def inner():\n        TARGET()\n    return inner\nfn = make()\nwith torch.no_grad():\n    fn()\nkeep(fn)\n", Grad.ON),
        # a project's own wrapper named for what it does (ultralytics' smart_inference_mode)
        ("from ultralytics.utils.torch_utils import smart_inference_mode\n@smart_inference_mode()\ndef f():\n    TARGET()\n", Grad.OFF),
        ("@torch.is_inference_mode_enabled\ndef f():\n    TARGET()\n", Grad.ON),
        # an ultralytics predictor's pipeline runs under BasePredictor.stream_inference's inference mode
        ("from ultralytics.engine.predictor import BasePredictor\nclass P(BasePredictor):\n    pass\nclass Q(P):\n    def inference(self, im):\n        TARGET()\n", Grad.OFF),
        ("class Q(Predictor):\n    def inference(self, im):\n        TARGET()\n", Grad.ON),
        # not an ExitStack: its `enter_context` means something else
        ("with Session() as stack:\n    stack.enter_context(torch.no_grad())\n    TARGET()\n", Grad.ON),
    ],
)
def test_grad_mode(source: str, expected: Grad) -> None:
    model = model_of("import torch\nfrom contextlib import ExitStack\n" + source)
    assert model.grad_state(call_named(model, "TARGET")) is expected


# -- provenance ----------------------------------------------------------------


TRAIN = """
import torch
import numpy as np
import torch.nn.functional as F

def train(model, loader, criterion, optimizer):
    for x, y in loader:
        out = model(x)
        loss = criterion(out, y)
        ce = F.cross_entropy(out, y)
        hf = model(**x).loss
        scaled = loss * 2 + 1
        n = loss.item()
        f = float(loss)
        d = loss.detach()
        lst = loss.tolist()
        npv = out.cpu().numpy()
        cmp = out > 0
        am = out.argmax(dim=1)
        arr = np.mean(x)
        num = 3.0
        layer = torch.nn.Linear(4, 4)
        with torch.no_grad():
            frozen = model(x)
        wrapped = {"loss": loss, "n": 1}
        stacked = torch.stack([loss, loss])
        loss.backward()
        optimizer.step()
        KEEP(out, loss, ce, hf, scaled, n, f, d, lst, npv, cmp, am, arr, num, layer, frozen, wrapped, stacked)
"""


@pytest.mark.parametrize(
    "name, carries",
    [
        ("out", True), ("loss", True), ("ce", True), ("hf", True), ("scaled", True),
        ("wrapped", True), ("stacked", True),
        ("n", False), ("f", False), ("d", False), ("lst", False), ("npv", False), ("cmp", False),
        ("am", False), ("arr", False), ("num", False), ("layer", False), ("frozen", False),
    ],
)
def test_carries_history(name: str, carries: bool) -> None:
    model = model_of(TRAIN)
    keep = call_named(model, "KEEP")
    arg = next(a.value for a in keep.args if code(a.value) == name)
    assert model.provenance.carries_history(arg, keep) is carries


def test_backwarded_parameter_carries_history() -> None:
    model = model_of("def step(loss, hist):\n    loss.backward()\n    KEEP(loss)\n")
    keep = call_named(model, "KEEP")
    assert model.provenance.carries_history(keep.args[0].value, keep)


def test_latest_binding_wins() -> None:
    model = model_of("def f(model, x):\n    out = model(x)\n    out = out.detach()\n    KEEP(out)\n")
    keep = call_named(model, "KEEP")
    assert not model.provenance.carries_history(keep.args[0].value, keep)


def test_local_function_returning_a_loss() -> None:
    model = model_of(
        "def compute(model, b):\n    return model(b).sum()\n"
        "def f(model, loader):\n    for b in loader:\n        l = compute(model, b)\n        KEEP(l)\n"
    )
    keep = call_named(model, "KEEP")
    assert model.provenance.carries_history(keep.args[0].value, keep)


def test_device_output() -> None:
    model = model_of(
        "def ev(model, loader):\n    for x, y in loader:\n        logits = model(x)\n        loss = crit(logits, y)\n"
        "        KEEP(logits, logits.argmax(1), logits.cpu(), loss, logits.sum(), y)\n"
    )
    keep = call_named(model, "KEEP")
    verdicts = [model.provenance.device_output(a.value, keep) for a in keep.args]
    # `x` goes to the model as the loader yields it: the loader puts batches on the device, `y` too
    assert verdicts == [True, True, False, False, False, True]
    sent = model_of("def ev(model, loader):\n    for x, y in loader:\n        KEEP(model(x), y.to('cuda'), y)\n")
    keep = call_named(sent, "KEEP")
    # the loop moves `y`: the loader yields it on the host, and what is moved is on the device
    assert [sent.provenance.device_output(a.value, keep) for a in keep.args] == [True, True, False]
    moved = model_of("def ev(model, loader):\n    for x, y in loader:\n        logits = model(x.to(dev))\n        KEEP(y)\n")
    keep = call_named(moved, "KEEP")
    assert not moved.provenance.device_output(keep.args[0].value, keep)  # moved by the loop: `y` stays put


# -- loops -----------------------------------------------------------------------


LOOPS = """
import torch

def fit(model, loader, val_loader, opt):
    history = []
    for epoch in range(3):
        for x, y in loader:
            loss = model(x).sum()
            loss.backward()
            opt.step()
            history.append(loss)
        model.eval()
        for x, y in val_loader:
            out = model(x)
        model.train()
        for x, y in loader:
            out2 = model(x)
"""


def test_training_and_eval_loops() -> None:
    model = model_of(LOOPS)
    loops = model.loops
    train_loop = model.enclosing_loops(statement(model, "history.append"))[0]
    epoch_loop = model.enclosing_loops(train_loop)[0]
    assert loops.is_training_loop(train_loop)
    assert not loops.is_training_loop(epoch_loop)  # it steps only through an inner loop
    val_loop = model.enclosing_loops(statement(model, "out = model"))[0]
    assert loops.iterates_eval_data(val_loop) and loops.follows_model_eval(val_loop)
    after_train = model.enclosing_loops(statement(model, "out2 ="))[0]
    assert not loops.follows_model_eval(after_train)


def test_step_in_local_function_makes_a_training_loop() -> None:
    model = model_of(
        "def step(model, b, opt):\n    model(b).sum().backward()\n    opt.step()\n"
        "def fit(model, loader, opt):\n    for b in loader:\n        step(model, b, opt)\n        MARK()\n"
    )
    loop = model.enclosing_loops(call_named(model, "MARK"))[0]
    assert model.loops.is_training_loop(loop)


def test_what_outlives_an_iteration() -> None:
    model = model_of(
        "def f(model, loader):\n    outer = []\n    total = 0\n    for b in loader:\n        inner = []\n"
        "        out = model(b)\n        outer.append(out)\n        inner.append(out)\n        total += out\n"
        "        self.hist.append(out)\n"
    )
    loops = model.loops
    for text, outlives in [("outer.append", True), ("inner.append", False), ("total +=", True), ("self.hist", True)]:
        stmt = statement(model, text)
        store = loops.store_of(stmt)
        assert store is not None, text
        assert loops.outlives(store, model.enclosing_loops(stmt)[0]) is outlives, text


def test_reduced_after_the_loop_is_consumed() -> None:
    from memlint.analysis.flow.consumers import consumed_after

    model = model_of(
        "def rollout(policy, env):\n    log_probs = []\n    for t in range(10):\n"
        "        log_probs.append(policy(env.obs()))\n    loss = -torch.stack(log_probs).sum()\n    loss.backward()\n"
        "def keep(model, loader):\n    outs = []\n    for b in loader:\n        outs.append(model(b))\n    return outs\n"
        "def hand_on(self, model, loader):\n    outputs = []\n    for b in loader:\n        outputs.append(model(b))\n"
        "    return self.epoch_end(outputs)\n"
        "def chunks(self, data):\n    enc = []\n    for c in data:\n        enc.append(self.encoder(c))\n"
        "    enc = torch.cat(enc)\n    return enc\n"
        "def logged(model, loader, opt):\n    kept = []\n    for b in loader:\n        loss = model(b)\n"
        "        loss.backward()\n        kept.append(loss)\n    loss = sum(kept)\n    print(loss)\n"
    )
    for text, consumed in [
        ("log_probs.append", True),  # reduced into the loss backwarded after the loop
        ("outs.append", False),  # returned as it is
        ("outputs.append", False),  # handed to an arbitrary call
        ("enc.append", True),  # concatenated into the returned activation, the list dropped
        ("kept.append", False),  # reduced into a name backwarded only inside the loop
    ]:
        stmt = statement(model, text)
        store = model.loops.store_of(stmt)
        assert consumed_after(model, store.container, model.enclosing_loops(stmt)[0], False) is consumed, text


def test_ctx_tensor_stores() -> None:
    model = model_of(
        """
        import torch
        class F(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, w, stride: int = 1, flag=False):
                ctx.w = w
                ctx.pair = (x, w)
                ctx.stride = stride
                ctx.flag = flag
                ctx.shape = x.shape
                ctx.numel = x.numel()
                ctx.big = torch.zeros(4)
                ctx.save_for_backward(x)
                return x @ w
        """
    )
    assert [s.attributes for s in model.autograd_functions.tensor_stores] == [("w",), ("pair",), ("big",)]


def test_hf_pipeline_forward_runs_without_grad() -> None:
    model = model_of(
        "from transformers import Pipeline\n"
        "class QA(Pipeline):\n    def _forward(self, inputs):\n        return self.run(inputs)\n"
        "    def run(self, inputs):\n        TARGET()\n"
        "class Other:\n    def _forward(self, inputs):\n        OTHER()\n"
    )
    assert model.grad_state(call_named(model, "TARGET")) is Grad.OFF
    assert model.grad_state(call_named(model, "OTHER")) is Grad.ON


def test_value_kind_decides_how_safe_a_detach_is() -> None:
    model = model_of(
        "def f(model, criterion, x, y):\n    out = model(x)\n    loss = criterion(out, y)\n    scaled = loss * 2\n"
        "    pair = (loss, out)\n    loss_dict = model(x, y)\n    KEEP(loss, scaled, out, pair, loss_dict, out.sum())\n"
    )
    keep = call_named(model, "KEEP")
    kinds = [model.provenance.value_kind(a.value, keep) for a in keep.args]
    assert kinds == ["tensor", "tensor", "maybe", "container", "container", "tensor"]


def test_value_computed_under_no_grad_keeps_no_history_when_read_after_the_block() -> None:
    """The grad mode that counts is the one a value was computed in; a `loss`
    backwarded in the training loop is another value than the evaluation one."""
    model = model_of(
        """
        import torch

        def main(model, train_loader, eval_loader, optimizer):
            for batch in train_loader:
                outputs = model(**batch)
                loss = outputs.loss
                loss.backward()
                TRAIN_KEEP(loss)
            for batch in eval_loader:
                with torch.no_grad():
                    outputs = model(**batch)
                loss = outputs.loss
                EVAL_KEEP(loss)
        """
    )
    for keeper, carries in (("TRAIN_KEEP", True), ("EVAL_KEEP", False)):
        keep = call_named(model, keeper)
        assert model.provenance.carries_history(keep.args[0].value, keep) is carries, keeper


# -- methods of the same class ---------------------------------------------------------


def test_own_method_and_its_effective_defaults() -> None:
    from memlint.analysis.syntax.methods import effective_default, own_method

    model = model_of(
        """
        class M:
            def enable(self, kwargs=None, flag=True, other=None):
                if kwargs is None:
                    kwargs = {"use_reentrant": False}
            def run(self):
                self.enable()
                self.missing()
        def f(m):
            m.enable()
        """
    )
    method = own_method(model, call_named(model, "self.enable"))
    assert method is not None and method.name.value == "enable"
    assert own_method(model, call_named(model, "self.missing")) is None
    assert own_method(model, call_named(model, "m.enable")) is None
    assert code(effective_default(method, "kwargs")) == '{"use_reentrant": False}'
    assert code(effective_default(method, "flag")) == "True"
    assert code(effective_default(method, "other")) == "None"
    assert effective_default(method, "absent") is None


# -- rank 0 and checkpoints saved from the CPU ------------------------------------------


_DIST = "import torch.distributed as dist\n"
_LIT = "import lightning.pytorch as pl\nclass M(pl.LightningModule):\n    def f(self):\n"


@pytest.mark.parametrize(
    "source, only",
    [
        (_DIST + "if dist.get_rank() == 0:\n    TARGET()\n", "fact"),
        (_DIST + "leader = dist.get_rank() == 0\nif leader:\n    TARGET()\n", "fact"),
        ("import os\nrank = int(os.environ['RANK'])\nif rank == 0:\n    TARGET()\n", "fact"),
        (_LIT + "        if self.global_rank == 0:\n            TARGET()\n", "fact"),
        (_LIT + "        if not self.trainer.is_global_zero:\n            return\n        TARGET()\n", "fact"),
        ("from accelerate import Accelerator\naccelerator = Accelerator()\nif accelerator.is_main_process:\n    TARGET()\n", "fact"),
        (_DIST + "def f(rank):\n    if rank != 0:\n        return\n    TARGET()\nf(dist.get_rank())\n", "fact"),
        ("import horovod.torch as hvd\nif resume and hvd.rank() == 0:\n    TARGET()\n", "fact"),
        # what makes the value is out of sight: a rank test by its name alone
        ("if self.global_rank == 0:\n    TARGET()\n", "named"),
        ("def f(rank):\n    if rank != 0:\n        return\n    TARGET()\n", "named"),
        ("def f(trainer):\n    if not trainer.is_global_zero:\n        return\n    TARGET()\n", "named"),
        # the file shows what the value is, and it is no rank: its name says nothing
        ("for rank, path in enumerate(paths):\n    if rank == 0:\n        TARGET()\n", None),
        (_DIST + "if dist.get_rank() == 0:\n    pass\nelse:\n    TARGET()\n", None),
        ("if local_rank == 1:\n    TARGET()\n", None),
        ("def f(rank):\n    if rank != 0:\n        log()\n    TARGET()\n", None),
        ("def f(rank):\n    TARGET()\n    if rank != 0:\n        return\n", None),
    ],
)
def test_runs_on_rank_zero_only(source: str, only: str | None) -> None:
    """Rank 0 by what the tested value is ("fact"), by its name alone ("named"), or not."""
    from memlint.analysis.facts.ranks import runs_on_rank_zero_only

    model = model_of(source)
    found = runs_on_rank_zero_only(model, call_named(model, "TARGET"))
    assert (found[0] if found else None) == only


@pytest.mark.parametrize(
    "source, evidence",
    [
        ("cfg = FullStateDictConfig(offload_to_cpu=True, rank0_only=True)\n", True),
        ("cfg = FullStateDictConfig(rank0_only=True)\n", False),
        ("torch.save({k: v.cpu() for k, v in sd.items()}, p)\n", True),
        ("torch.save(model.state_dict(), p)\n", False),
    ],
)
def test_saves_from_cpu(source: str, evidence: bool) -> None:
    from memlint.analysis.facts.checkpoints import saves_from_cpu

    model = model_of("import torch\nfrom torch.distributed.fsdp import FullStateDictConfig\n" + source)
    assert (saves_from_cpu(model) is not None) is evidence


def test_ml001_severity_counts_what_stays_on_the_device() -> None:
    from memlint.engine import lint_source
    from memlint.models import Severity

    cases = Path(__file__).resolve().parent.parent / "test_cases" / "ML001_retained_graph"
    expectations = {
        "bad_loss_kept_with_retain_graph.py": "whose activations `backward(retain_graph=True)` does not free",
        "bad_output_kept_after_backward.py": "holds a whole model output",
    }
    for name, phrase in expectations.items():
        findings, _ = lint_source((cases / name).read_text(encoding="utf-8"), name, ["ML001"])
        (finding,) = findings
        assert finding.severity is Severity.ERROR and phrase in finding.message, finding.message
    findings, _ = lint_source((cases / "bad_loss_appended_after_backward.py").read_text(encoding="utf-8"), "t.py", ["ML001"])
    assert [f.severity for f in findings] == [Severity.WARNING]


def test_an_abstract_forward_does_not_hide_the_override() -> None:
    model = model_of(
        "class Base:\n    def forward(self, x):\n        '''Run the model.'''\n        raise NotImplementedError\n"
        "    def predict(self, x):\n        return self.forward(x)\n"
        "class Concrete(Base):\n    def forward(self, x):\n        return x\n    def run(self, x):\n        return self.forward(x)\n"
    )
    for call in model.tree.by_type[cst.Call]:
        if code(call.func) == "self.forward":
            assert model.local_callees(call) == [model.functions["forward"][1]]  # the override, not the stub
    only_abstract = model_of("class Base:\n    def forward(self, x):\n        raise NotImplementedError()\n    def predict(self, x):\n        return self.forward(x)\n")
    (call,) = only_abstract.tree.by_type[cst.Call][1:]
    assert only_abstract.local_callees(call) == [] and only_abstract.provenance.is_module_call(call)


def test_self_calls_reach_the_methods_of_their_own_class_hierarchy_only() -> None:
    # `self.step()` in a mixin runs what each class deriving from it resolves (the subclass's own, or
    # that of its other base); a `step` of a class unrelated to the mixin is never `self`'s
    model = model_of(
        "class Loop:\n    def run(self):\n        return self.step()\n"
        "class Steps:\n    def step(self):\n        return 1\n"
        "class Runner(Loop, Steps):\n    pass\n"
        "class Other:\n    def step(self):\n        return 2\n    def go(self):\n        return self.step()\n"
    )
    steps = model.functions["step"]
    calls = {code(c.func): c for c in model.tree.by_type[cst.Call] if model.method_class(c).name.value == "Loop"}
    assert model.local_callees(calls["self.step"]) == [steps[0]]
    (other,) = [c for c in model.tree.by_type[cst.Call] if model.method_class(c).name.value == "Other"]
    assert model.local_callees(other) == [steps[1]]
    assert model.call_sites()[steps[1]] == [other]


# -- tensors on ctx --------------------------------------------------------------------


@pytest.mark.parametrize(
    "forward, caller, stored",
    [
        # a callable the Function runs, and a process group: not tensors
        ("def forward(ctx, run_function, x):\n    ctx.fn = run_function\n    return run_function(x)", "", set()),
        ("def forward(ctx, fn, x):\n    ctx.fn = fn\n    return ctx.fn(x)", "", set()),
        ("def forward(ctx, group, x):\n    ctx.group = group\n    return x.clone()", "F.apply(dist.new_group(), t)", set()),
        # a parameter passed a tensor, or a dict holding one, by `.apply`
        ("def forward(ctx, gate, x):\n    ctx.gate = gate\n    return x.clone()", "F.apply(torch.rand(3), t)", {"gate"}),
        ("def forward(ctx, x, c):\n    ctx.c = c\n    return x.clone()", "F.apply(t, {'batch': torch.ones(2)})", {"c"}),
        ("def forward(ctx, x, c):\n    ctx.c = c\n    return x.clone()", "F.apply(t, {'scale': 0.5})", set()),
        # a container filled with tensors in forward
        ("def forward(ctx, x):\n    keep = {}\n    keep['x'] = x\n    ctx.keep = keep\n    return x.clone()", "", {"keep"}),
        ("def forward(ctx, x):\n    meta = []\n    meta.append(x.shape)\n    ctx.meta = meta\n    return x.clone()", "", set()),
    ],
)
def test_tensors_stored_on_ctx(forward: str, caller: str, stored: set[str]) -> None:
    body = textwrap.indent(forward, "    ")
    source = f"import torch\nimport torch.distributed as dist\nclass F(torch.autograd.Function):\n    @staticmethod\n{body}\n{caller}\n"
    model = SemanticModel(cst.parse_module(source), "fn.py")
    found = {a for s in model.autograd_functions.tensor_stores for a in s.attributes}
    assert found == stored


def test_an_ultralytics_model_object_predicts_without_grad() -> None:
    model = model_of(
        """
        from ultralytics import YOLO

        class App:
            def load(self, path):
                self.model = YOLO(path)
                self.net = build(path)

            def inference(self, frame):
                return self.model(frame), self.net(frame)
        """
    )
    assert not model.provenance.is_module_call(call_named(model, "self.model(frame)"))
    assert model.provenance.is_module_call(call_named(model, "self.net(frame)"))


def test_grad_mode_of_project_wrappers_and_skorch_infer() -> None:
    model = model_of(
        "from ultralytics.utils.torch_utils import smart_inference_mode\nfrom skorch import NeuralNet\n"
        "@smart_inference_mode()\ndef predict(model, x):\n    return model(x)\n"
        "class Net(NeuralNet):\n    def infer(self, x):\n        return self.module_(x)\n"
    )
    predict, infer = model.functions["predict"][0], model.functions["infer"][0]
    assert model.grad.entry_state(predict) is Grad.OFF  # a wrapper named for what it does
    assert model.grad.entry_state(infer) is Grad.MAYBE  # skorch runs infer for training and evaluation


def test_elements_taken_out_and_backwarded_after_the_loop_are_consumed() -> None:
    from memlint.analysis.flow.consumers import consumed_after

    model = model_of(
        "def f(model, loader):\n    losses = []\n    for b in loader:\n        losses.append(model(b).sum())\n"
        "    for i in range(len(losses)):\n        loss = losses[i]\n        loss.backward()\n"
    )
    stmt = statement(model, "losses.append")
    assert consumed_after(model, model.loops.store_of(stmt).container, model.enclosing_loops(stmt)[0], False)


def test_inference_after_eval_is_not_reported_in_a_pytest_test() -> None:
    """A test that puts a model in eval mode and runs it once checks an export; the same body in
    a script's `main` is inference with autograd on."""
    from memlint.engine import lint_source

    body = (
        "import torch\n\n\n"
        "def {name}(model, x):\n"
        "    model.eval()\n"
        "    out = model(x)\n"
        "    return out.detach().cpu()\n"
    )
    findings, _ = lint_source(body.format(name="test_export"), "tests/test_export.py", ["ML003"])
    assert findings == []
    findings, _ = lint_source(body.format(name="main"), "scripts/infer.py", ["ML003"])
    assert [(f.location.row, f.code) for f in findings] == [(6, "ML003")]


def test_svi_losses_are_numbers_by_the_library_model() -> None:
    """pyro's `SVI.step`/`evaluate_loss` return floats: a library model, also for a parameter that
    every call of the function in the file passes an `SVI(...)`; another class's loss-named method
    is still assumed to return a loss."""
    model = model_of(
        textwrap.dedent(
            """
            from pyro.infer import SVI, Trace_ELBO

            def evaluate(svi, elbo, loader):
                for x in loader:
                    a = svi.evaluate_loss(x)
                    b = elbo.differentiable_loss(x)

            svi = SVI(m, g, opt, loss=Trace_ELBO())
            evaluate(svi, Trace_ELBO(), [])
            """
        )
    )
    provenance = model.provenance
    assert not provenance.carries_history(call_named(model, "svi.evaluate_loss(x)"))
    assert provenance.carries_history(call_named(model, "elbo.differentiable_loss(x)"))
    receiver = call_named(model, "svi.evaluate_loss(x)").func.value
    assert provenance.constructed_class(receiver, statement(model, "a = svi")) == "pyro.infer.SVI"


def test_evaluation_by_use_through_a_method_is_the_same_whichever_question_comes_first() -> None:
    """Whether `Net.score` runs a model asks whether it is its own evaluation region, which asks
    whether its caller's loop evaluates, which asks what `score` runs: a circle. What is computed
    from the provisional answer is not kept, so both orders of asking agree."""
    source = Path(__file__).resolve().parent.parent / "test_cases" / "ML003_eval_without_no_grad" / "bad_loop_by_use_through_object_method.py"
    answers = []
    for method_first in (True, False):
        model = model_of(source.read_text(), "score.py")
        run = call_named(model, "net.score(x)")
        net = next(c for c in model.tree.by_type[cst.ClassDef] if c.name.value == "Net")
        if method_first:
            runs = model.model_runs.object_runs(net)
            region = model.eval_regions.region(run)
        else:
            region = model.eval_regions.region(run)
            runs = model.model_runs.object_runs(net)
        answers.append((sorted(runs), type(region).__name__))
    assert answers[0] == answers[1] == (["score"], "For"), answers
