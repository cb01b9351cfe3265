from __future__ import annotations

import libcst as cst

from memlint.analysis.syntax.expressions import code, literal_parts, method_name
from memlint.analysis.regions.guards import runs_sometimes
from memlint.analysis.regions.per_step import step_context
from memlint.models import Applicability, Severity
from memlint.rules.base import Rule

class MetricNeverReset(Rule):
    code = "ML020"
    name = "metric-never-reset"
    severity = Severity.WARNING
    summary = "A torchmetrics metric with list states is updated every step and never reset"
    fix_applicability = Applicability.DISPLAY_ONLY
    needles = (("torchmetrics", "etric"),)  # a metric class of another file of the project: `self.val_metric = ...`
    what = """
Checks for a torchmetrics metric whose states are lists of every batch's
inputs (`AUROC`, `ROC`, `PrecisionRecallCurve`, `AveragePrecision` without
`thresholds=`, `CatMetric`, `MeanAveragePrecision`, `SpearmanCorrCoef`,
retrieval metrics, ..., and a `Metric` subclass of the project, in this file or
another, that adds a list state with `add_state(name, default=[])` and appends
device tensors to it), built without `compute_on_cpu=True`, updated
(`metric.update(...)` or `metric(...)`) on every step, and never `reset()`
in the file. A metric logged through Lightning's `self.log(name, metric)`
is reset by Lightning at the end of each epoch and is not reported, nor is
a metric local to an evaluation function that does not return it and
evaluates once per call (its states last one evaluation).
"""
    why = """
Each `update` appends the batch's predictions and targets to the metric's
list states, on the device they came from; only `reset()` empties them
(`compute()` does not). Never reset, the states grow with every batch for
the whole run: an AUROC over 1,000 classes updated with batches of 256 keeps
1 MiB of fp32 predictions per step, 10 GiB after 10,000 steps.
`compute_on_cpu=True` moves the states to host memory after each update.
"""
    example = """
auroc = torchmetrics.AUROC(task="multiclass", num_classes=1000).cuda()
for epoch in range(epochs):
    for x, y in val_loader:
        auroc.update(model(x), y)
    print(auroc.compute())
"""
    use_instead = """
auroc = torchmetrics.AUROC(task="multiclass", num_classes=1000).cuda()
for epoch in range(epochs):
    for x, y in val_loader:
        auroc.update(model(x), y)
    print(auroc.compute())
    auroc.reset()
"""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self._metrics: dict[str, list[cst.Call]] | None = None
        self._reported: set[str] = set()

    def visit_Call(self, node: cst.Call) -> None:
        model = self.model
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in ("update", "forward"):
            target = code(func.value)
        elif isinstance(func, (cst.Name, cst.Attribute)):
            target = code(func)
        else:
            return
        built = self._same_variable(self._growing_metrics().get(target, []), target, node)
        if built is None or target in self._reported or self._reset_or_logged(target):
            return
        context = step_context(model, node, lambda n, region: runs_sometimes(model, n, region))
        if context is None or self._dies_with_its_evaluation(target, built, context.region):
            return
        self._reported.add(target)
        kind = model.metrics.growing(built)
        message = (
            f"`{target}` (`{kind}`, line {model.range_of(built).start.line}) is updated on {context.where} and "
            "never `reset()`, so its list states grow on the device"
        )
        hint = (
            f"call `{target}.reset()` after each `compute()` (each epoch), or build it with `compute_on_cpu=True`: "
            "its list states keep every batch's predictions and targets on the device for the whole run"
        )
        self.report(node, message, hint)

    def _same_variable(self, built: list[cst.Call], target: str, at: cst.CSTNode) -> cst.Call | None:
        """The constructor of the metric `target` names at `at`: a local name's in the same function, a
        module-level one's where the function does not bind the name, `self.x`'s in the same class."""
        model = self.model
        scope = model.scope_of(at)
        root = target.split(".")[0]
        for call in built:
            home = model.scope_of(call)
            if root == "self":
                if isinstance(home, cst.FunctionDef) and isinstance(scope, cst.FunctionDef) and (
                    model.enclosing_class(home) is model.enclosing_class(scope)
                ):
                    return call
            elif home is scope or (
                home is model.module and not (model.bindings(scope, root) or root in model.params(scope))
            ):
                return call
        return None

    def _growing_metrics(self) -> dict[str, list[cst.Call]]:
        """`name` or `self.attr` -> the constructor calls of list-state metrics that keep their states on the device."""
        if self._metrics is None:
            self._metrics = {}
            model = self.model
            for assign in model.tree.by_type.get(cst.Assign, ()):
                value = assign.value
                while isinstance(value, cst.Call) and method_name(value) in ("to", "cuda"):
                    value = value.func.value  # `AUROC(...).to(device)`
                if isinstance(value, cst.Call) and model.metrics.growing(value) is not None:
                    for target in assign.targets:
                        self._metrics.setdefault(code(target.target), []).append(value)
        return self._metrics

    def _dies_with_its_evaluation(self, target: str, built: cst.Call, region: cst.CSTNode) -> bool:
        """A metric local to a function that evaluates once per call and does not return it: its states
        last one evaluation (what ML005 says of outputs kept on the device), not the whole run."""
        model = self.model
        scope = model.scope_of(built)
        if not isinstance(scope, cst.FunctionDef) or "." in target or model.loops.is_training_loop(region):
            return False
        if set(map(id, model.enclosing_loops(region))) - set(map(id, model.enclosing_loops(built))):
            return False  # `for epoch in ...:` around the evaluation loop, the metric built before it
        returned = any(
            ret.value is not None and any(code(part) == target for part in literal_parts(ret.value))
            for ret in model.tree.descendants(scope, cst.Return)
        )
        return not returned

    def _reset_or_logged(self, target: str) -> bool:
        """`metric.reset()` anywhere, or `self.log(..., metric)` (Lightning resets a logged metric)."""
        for call in self.model.tree.by_type.get(cst.Call, ()):
            func = call.func
            if isinstance(func, cst.Attribute) and func.attr.value == "reset" and code(func.value) == target:
                return True
            if method_name(call) in ("log", "log_dict") and any(code(a.value) == target for a in call.args):
                return True
            if method_name(call) == "log_dict" and any(target in code(a.value) for a in call.args):
                return True
        return False
