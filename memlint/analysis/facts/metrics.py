"""Metrics whose states grow with every update: torchmetrics' list-state classes (by the table) and
the project's own `Metric` subclasses that add a list state, in this file or, by its summary, in
another file of the project."""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

import libcst as cst

from memlint.analysis.library import LIST_STATE_METRICS, METRIC_BASES, METRIC_PACKAGE
from memlint.analysis.syntax.expressions import bool_constant, code, keyword_arg, method_name

if TYPE_CHECKING:
    from memlint.analysis.context import FileContext

# What a list state can be appended in `update` that is not on the device.
_HOST = {"cpu", "numpy", "tolist", "item"}


class Metrics:
    def __init__(self, model: "FileContext") -> None:
        self.model = model
        self._grows: dict[int, bool] = {}  # id(class) -> `class_grows`

    @cached_property
    def _classes(self) -> dict[str, cst.ClassDef]:
        return {c.name.value: c for c in self.model.tree.by_type.get(cst.ClassDef, ())}

    def growing(self, call: cst.Call) -> str | None:
        """The metric class that `call` builds, as written, when every `update` of it appends the
        batch to list states kept on the device (not built with `compute_on_cpu=True`, nor binned
        with `thresholds=`); None for anything else."""
        if any(arg.star == "**" for arg in call.args):
            return None  # (`compute_on_cpu` may be among them)
        on_cpu = keyword_arg(call, "compute_on_cpu")
        if on_cpu is not None and bool_constant(on_cpu.value) is not False:
            return None
        name = self.model.imports.resolve(call.func) or ""
        kind = name.rsplit(".", 1)[-1]
        if name.startswith(METRIC_PACKAGE) and kind in LIST_STATE_METRICS:
            binned = LIST_STATE_METRICS[kind] and keyword_arg(call, "thresholds") is not None
            return None if binned else kind
        local = self._classes.get(code(call.func)) if type(call.func) is cst.Name else None
        if local is not None:
            return local.name.value if self.class_grows(local) else None
        facts = self.model.project.constructed(call)
        return code(call.func) if facts is not None and facts.get("list_states") else None

    def class_grows(self, cls: cst.ClassDef) -> bool:
        """Is `cls` a metric (a torchmetrics `Metric` or list-state class, through its bases of this
        file or of another file of the project) with a list state that `update` appends device
        tensors to, and no `compute_on_cpu=True` handed to its base?"""
        key = id(cls)
        if key not in self._grows:
            self._grows[key] = False  # (a cycle of bases grows nothing)
            self._grows[key] = self._class_grows(cls)
        return self._grows[key]

    def _class_grows(self, cls: cst.ClassDef) -> bool:
        inherited = False  # a base that grows already (a list-state class, or a project metric that does)
        metric = False  # a base that is a torchmetrics metric at all
        for base in cls.bases:
            if base.keyword is not None:
                continue
            name = self.model.imports.resolve(base.value) or ""
            local = self._classes.get(code(base.value)) if type(base.value) is cst.Name else None
            if local is not None and local is not cls:
                inherited |= self.class_grows(local)
                metric |= inherited or self._is_metric(local)
            elif name in METRIC_BASES:
                metric = True
            elif name.startswith(METRIC_PACKAGE) and name.rsplit(".", 1)[-1] in LIST_STATE_METRICS:
                inherited = metric = True
            else:
                facts = self.model.project.klass(base.value)
                if facts is not None and facts.get("list_states"):
                    inherited = metric = True
        if not metric:
            return False  # (most classes: their bases say so before any of their code is read)
        for call in self.model.tree.descendants(cls, cst.Call):
            on_cpu = keyword_arg(call, "compute_on_cpu") if method_name(call) == "__init__" else None
            if on_cpu is not None and bool_constant(on_cpu.value) is not False:
                return False  # `super().__init__(compute_on_cpu=True)`
        states = self._list_states(cls)
        if not states:
            return inherited
        # a list state that `update` fills with host values only (`self.preds.append(p.cpu())`) holds no device memory
        return inherited or any(not self._host_only(cls, state) for state in states)

    def _is_metric(self, cls: cst.ClassDef) -> bool:
        for base in cls.bases:
            name = (self.model.imports.resolve(base.value) or "") if base.keyword is None else ""
            if name in METRIC_BASES or (name.startswith(METRIC_PACKAGE) and name.rsplit(".", 1)[-1] in LIST_STATE_METRICS):
                return True
            local = self._classes.get(code(base.value)) if base.keyword is None and type(base.value) is cst.Name else None
            if local is not None and local is not cls and self._is_metric(local):
                return True
        return False

    def _list_states(self, cls: cst.ClassDef) -> list[str]:
        """The states `cls` adds as lists: `self.add_state("preds", default=[], dist_reduce_fx="cat")`."""
        found = []
        for call in self.model.tree.descendants(cls, cst.Call):
            if method_name(call) != "add_state" or not call.args:
                continue
            default = keyword_arg(call, "default")
            value = default.value if default is not None else (call.args[1].value if len(call.args) > 1 and call.args[1].keyword is None else None)
            empty_list = (type(value) is cst.List and not value.elements) or (
                type(value) is cst.Call and type(value.func) is cst.Name and value.func.value == "list" and not value.args
            )
            name = call.args[0].value
            if empty_list and type(name) is cst.SimpleString:
                found.append(name.evaluated_value)  # type: ignore[union-attr]
        return found

    def _host_only(self, cls: cst.ClassDef, state: str) -> bool:
        """Does every `self.<state>.append(value)` of the class append a value moved off the device?"""
        appended = [
            call.args[0].value
            for call in self.model.tree.descendants(cls, cst.Call)
            if method_name(call) in ("append", "extend") and call.args and code(call.func.value) == f"self.{state}"  # type: ignore[attr-defined]
        ]
        return bool(appended) and all(type(v) is cst.Call and method_name(v) in _HOST for v in appended)
