"""Project-wide analysis: what one file's findings depend on in another file.

Each file is parsed once, in a worker process, which also writes a small
JSON summary of what other files may need to know about it: the custom
autograd Functions that park tensors on `ctx`, what its top-level functions
return, which imported functions it calls and whether with grad. The parent
process joins the summaries into a `ProjectIndex` and adjusts findings:

* ML001 becomes an error, naming the Function and its file, when the kept
  value comes from a project Function that keeps tensors on `ctx`, directly
  (`Fn.apply(...)`) or through project functions that return its result;
* ML003 is dropped for an evaluation function that its own file never calls
  and that other files call only from no-grad code;
* ML002 about Lightning's cache-less autocast around `training_step` is kept
  only where the installed Lightning release has it, and, for a module whose
  Trainer is built in another file, only where a project file builds one with
  mixed precision (`analysis/lightning_precision.py`).

Per-file findings and summaries depend only on the file, so the cache stays
keyed on file content; the adjustments are recomputed on every run.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import libcst as cst

from memlint.analysis import lightning_precision as lightning
from memlint.analysis.cuda_init import ALLOC_VARIABLES, CudaInit, alloc_setting
from memlint.analysis.expressions import names_in
from memlint.analysis.flow.summaries import exported
from memlint.analysis.imports import dotted
from memlint.models import Finding, Position, Severity
from memlint.suppression import is_suppressed

if TYPE_CHECKING:
    from memlint.analysis.model import SemanticModel

# Files that may matter to other files even when no rule needs to look at them.
SUMMARY_NEEDLES = ("ctx", "no_grad", "inference_mode", "set_grad_enabled", ".apply(", "cuda", "ALLOC_CONF", "precision")


def summarize(model: "SemanticModel") -> dict[str, Any]:
    """The facts about this file that other files' findings may depend on."""
    tree = model.tree
    top_level = [f for f in tree.by_type.get(cst.FunctionDef, ()) if tree.parent_of(f) is model.module]
    returns: dict[str, list[str]] = {}
    for func in top_level:
        refs = set()
        for ret in tree.descendants(func.body, cst.Return):
            if ret.value is not None and model.scope_of(ret) is func:
                refs |= history_sources(model, ret.value, ret)
        if refs:
            returns[func.name.value] = sorted(refs)
    imported_roots = set(model.imports.aliases) | set(model.imports.relative)
    calls = []
    for call in tree.by_type.get(cst.Call, ()):
        name = dotted(call.func)
        if name and name.split(".")[0] in imported_roots:
            calls.append([name, model.grad_state(call).value])
    return {
        "alloc_setters": _alloc_setters(model, top_level),
        "calls_after_cuda": _calls_after_cuda(model, imported_roots),
        "imports": {k: [0, v] for k, v in model.imports.aliases.items()}
        | {k: list(v) for k, v in model.imports.relative.items()},
        "ctx_functions": sorted({s.function.name.value for s in model.autograd_functions.tensor_stores}),
        "returns": returns,
        "calls": calls,
        "trainer_precisions": _trainer_precisions(model),
        "flow": exported(model),
    }


def _trainer_precisions(model: "SemanticModel") -> list[list]:
    """This file's Lightning Trainers that run the steps under `MixedPrecision`: [precision, line]."""
    if not any(v.split(".")[0] in ("lightning", "pytorch_lightning") for v in model.imports.aliases.values()):
        return []
    return [[t.precision, model.range_of(t.node).start.line] for t in lightning.trainer_precisions(model) if t.mixed]


def _alloc_setters(model: "SemanticModel", top_level: list[cst.FunctionDef]) -> dict[str, list]:
    """Top-level functions that set an allocator variable with nothing in this file
    using CUDA first: function -> [variable, row, column, end row, end column, suppressed]."""
    strings = model.tree.by_type.get(cst.SimpleString, ())
    if not any(v in node.value for node in strings for v in ALLOC_VARIABLES):
        return {}
    found: dict[str, list] = {}
    cuda = CudaInit(model)
    for func in top_level:
        for node_type in (cst.Assign, cst.Call):
            for node in model.tree.descendants(func, node_type):
                setting = alloc_setting(model, node)
                if setting is None or cuda.launches_after(node) or cuda.cuda_before(node) is not None:
                    continue
                where = model.range_of(node)
                # a suppression comment lives on the statement's line
                line = model.tree.statement_of(node)
                if not isinstance(line, cst.SimpleStatementLine):
                    line = model.tree.parent_of(line) or line
                text = model.module.code_for_node(line)
                suppressed = is_suppressed(text.splitlines() or [""], 1, 1, "ML010", "alloc-conf-too-late")
                found.setdefault(
                    func.name.value,
                    [setting[0], where.start.line, where.start.column + 1, where.end.line, where.end.column + 1, suppressed],
                )
    return found


def _calls_after_cuda(model: "SemanticModel", imported_roots: set[str]) -> list[list]:
    """Calls of imported functions made after this file used CUDA: [callee, CUDA use, its line]."""
    cuda = CudaInit(model)
    if not cuda.cuda_uses:
        return []
    found = []
    for call in model.tree.by_type.get(cst.Call, ()):
        name = dotted(call.func)
        if not name or name.split(".")[0] not in imported_roots:
            continue
        used = cuda.cuda_before(call)
        if used is not None:
            row = model.range_of(used).start.line
            found.append([name, " ".join(model.module.code_for_node(used).split())[:40], row])
    return found


def history_sources(model: "SemanticModel", expr: cst.BaseExpression, at: cst.CSTNode) -> set[str]:
    """Callees (as written) whose results may flow into `expr` within its scope."""
    scope = model.scope_of(at)
    found = {dotted(c.func) for c in _calls_in(model, expr)}
    for name in model.provenance.dependencies(set(names_in(expr)), scope):
        for binding in model.bindings(scope, name):
            if binding.value is not None:
                found |= {dotted(c.func) for c in _calls_in(model, binding.value)}
    return {f for f in found if f}


def _calls_in(model: "SemanticModel", expr: cst.CSTNode) -> list[cst.Call]:
    calls = [expr] if isinstance(expr, cst.Call) else []
    return calls + model.tree.descendants(expr, cst.Call)


def module_name(path: str, root: Path) -> str:
    """`pkg/sub/ops.py` -> `pkg.sub.ops` (relative to the project root)."""
    relative = os.path.relpath(os.path.abspath(path), root).replace(os.sep, "/")
    if relative.startswith("../"):
        relative = os.path.abspath(path).lstrip("/")
    parts = relative[: -len(".py")].split("/") if relative.endswith(".py") else relative.split("/")
    if parts and parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(p for p in parts if p)


class ProjectIndex:
    def __init__(self, summaries: dict[str, dict[str, Any]], root: Path) -> None:
        self.modules = {path: module_name(path, root) for path in summaries}
        self.summaries = summaries
        self.paths_by_module = {m: p for p, m in self.modules.items()}
        self.ctx_functions: dict[str, str] = {}  # qualified Function -> path
        for path, summary in summaries.items():
            for cls in summary.get("ctx_functions", ()):
                self.ctx_functions[f"{self.modules[path]}.{cls}"] = path
        self.returns_ctx = self._functions_returning_ctx_results()

    def qualify(self, path: str, name: str) -> str:
        """The project-qualified name of `name` as written in `path`."""
        summary = self.summaries.get(path, {})
        root, _, rest = name.partition(".")
        entry = summary.get("imports", {}).get(root)
        if entry is None:
            base = f"{self.modules.get(path, '')}.{root}"
        else:
            level, target = entry
            if level:
                package = self.modules.get(path, "").split(".")
                if not path.endswith("__init__.py"):
                    package = package[:-1]
                package = package[: len(package) - (level - 1)] if level > 1 else package
                base = ".".join([*package, target]) if target else ".".join(package)
            else:
                base = target
        return f"{base}.{rest}" if rest else base

    def _function_of_apply(self, qualified: str) -> str | None:
        if qualified.endswith(".apply") and qualified[: -len(".apply")] in self.ctx_functions:
            return qualified[: -len(".apply")]
        return None

    def _functions_returning_ctx_results(self) -> dict[str, str]:
        """Project functions whose result comes from a ctx-keeping Function -> that Function."""
        result: dict[str, str] = {}
        changed = True
        while changed:
            changed = False
            for path, summary in self.summaries.items():
                for func, refs in summary.get("returns", {}).items():
                    qualified = f"{self.modules[path]}.{func}"
                    if qualified in result:
                        continue
                    for ref in refs:
                        target = self.qualify(path, ref)
                        origin = self._function_of_apply(target) or result.get(target)
                        if origin:
                            result[qualified] = origin
                            changed = True
                            break
        return result

    def ctx_function_behind(self, path: str, sources: list[str]) -> str | None:
        for source in sources:
            target = self.qualify(path, source)
            origin = self._function_of_apply(target) or self.returns_ctx.get(target)
            if origin:
                return origin
        return None

    def only_called_without_grad(self, path: str, function: str) -> bool:
        qualified = f"{self.modules[path]}.{function}"
        states = [
            state
            for other, summary in self.summaries.items()
            if other != path
            for name, state in summary.get("calls", ())
            if self.qualify(other, name) == qualified
        ]
        return bool(states) and all(state == "off" for state in states)

    def late_alloc_settings(self) -> list[Finding]:
        """ML010 across files: a helper module's function sets `PYTORCH_CUDA_ALLOC_CONF`
        and another module of the project calls it after it has used CUDA."""
        setters = {
            f"{self.modules[path]}.{func}": (path, entry)
            for path, summary in self.summaries.items()
            for func, entry in summary.get("alloc_setters", {}).items()
        }
        found: dict[str, Finding] = {}
        for caller, summary in self.summaries.items():
            for name, use, row in summary.get("calls_after_cuda", ()):
                target = setters.get(self.qualify(caller, name))
                if target is None or target[0] in found or target[1][5]:
                    continue
                path, (key, line, column, end_line, end_column, _) = target
                found[path] = Finding(
                    code="ML010",
                    name="alloc-conf-too-late",
                    message=f"`{key}` is set by `{name.rsplit('.', 1)[-1]}()`, which {os.path.relpath(caller)} calls "
                    f"after it has already used CUDA (`{use}`, line {row}): the allocator read its settings when "
                    "CUDA was initialised, so this one is silently ignored",
                    severity=Severity.WARNING,
                    filename=path,
                    location=Position(line, column),
                    end_location=Position(end_line, end_column),
                    hint=f"call it before the first CUDA use in {os.path.relpath(caller)}, or set `{key}` in the "
                    "environment that launches the script",
                )
        return list(found.values())

    def _lightning_cast_cache(self, finding: Finding) -> Finding | None:
        """ML002 on a `training_step`: kept where the installed Lightning and the project's Trainer
        run it under the cache-less autocast, with the release and the Trainer named."""
        facts = finding.extra["lightning"]
        version = lightning.installed_version(facts.get("package", "lightning"))
        if not lightning.cache_disabled_in(version):
            return None
        message = finding.message.replace(lightning.UNKNOWN_VERSION, lightning.describe(version))
        if facts.get("trainer") == "project":
            trainers = [
                (path, precision, line)
                for path, summary in sorted(self.summaries.items())
                for precision, line in summary.get("trainer_precisions", ())
            ]
            if not trainers:
                return None
            path, precision, line = trainers[0]
            message = message.replace(
                lightning.PROJECT_TRAINER, f'`Trainer(precision="{precision}")` ({os.path.relpath(path)}, line {line})'
            )
        return replace(finding, message=message)

    def flow_of(self, path: str, name: str, member: str = "") -> dict[str, Any] | None:
        """The exported flow facts of `name` (or of its method `member`) as written in `path`: a
        function or class of the project reached through the file's imports; None when it is
        not the project's. A project function with no entry exports nothing (`{}`)."""
        module, _, last = self.qualify(path, name).rpartition(".")
        other = self.paths_by_module.get(module)
        if other is None or other == path:
            return None
        key = f"{last}.{member}" if member else last
        return self.summaries[other].get("flow", {}).get(key, {})

    def _guess_refuted(self, finding: Finding) -> bool:
        """Did ML001 rest on a guess from a name (a loss-named function, a meter) that the other
        file's summary contradicts (it returns no history; its `update` keeps nothing)?"""
        path = finding.filename
        assumed = finding.extra.get("assumed") or []
        if assumed:
            facts = [self.flow_of(path, name) for name in assumed]
            if all(f is not None and f.get("returns") == "no" for f in facts):
                return True
        meter = finding.extra.get("meter")
        if meter:
            facts = self.flow_of(path, meter, "update")
            params = (facts or {}).get("params") or [""]
            if facts is not None and "keeps" in facts and params[0] not in facts["keeps"]:
                return True  # `meter.update(loss)`: its `update` keeps nothing of its first argument
        return False

    def _guess_confirmed(self, finding: Finding) -> Finding:
        """Where another file of the project shows what ML001 assumed, say so instead."""
        path = finding.filename
        facts = []
        meter = finding.extra.get("meter")
        if meter:
            found = self.flow_of(path, meter, "update")
            if found and found.get("keeps"):
                where = os.path.relpath(self.paths_by_module[self.qualify(path, meter).rpartition(".")[0]])
                facts.append(f"`{meter.rsplit('.', 1)[-1]}.update` ({where}) keeps it in the meter")
        for name in finding.extra.get("assumed") or []:
            found = self.flow_of(path, name)
            if found and found.get("returns") == "yes":
                where = os.path.relpath(self.paths_by_module[self.qualify(path, name).rpartition(".")[0]])
                facts.append(f"`{name}()` ({where}) returns a value with autograd history")
        if not facts or len(facts) < len(finding.extra["assumptions"]):
            return finding
        message = finding.message
        for text in finding.extra["assumptions"]:
            message = message.replace(text, "")
        return replace(finding, message=message + "".join(f" ({fact})" for fact in facts))

    def adjust(self, findings: list[Finding]) -> list[Finding]:
        adjusted = []
        for finding in findings:
            if finding.code == "ML001" and finding.extra.get("sources"):
                origin = self.ctx_function_behind(finding.filename, finding.extra["sources"])
                if origin is not None and origin.rsplit(".", 1)[0] != self.modules.get(finding.filename):
                    where = os.path.relpath(self.ctx_functions[origin])
                    finding = replace(
                        finding,
                        severity=Severity.ERROR,
                        message=f"`{finding.extra.get('kept', 'the value')}` is kept beyond its iteration with its "
                        f"autograd graph, and it comes from the custom autograd Function `{origin.rsplit('.', 1)[1]}` "
                        f"({where}), which keeps tensors on `ctx` that backward does not free: they stay on the "
                        "device as long as each kept graph",
                    )
            if finding.code == "ML002" and finding.extra.get("lightning"):
                finding = self._lightning_cast_cache(finding)
                if finding is None:
                    continue
            if finding.code == "ML001" and self._guess_refuted(finding):
                continue
            if finding.code == "ML001" and finding.extra.get("assumptions"):
                finding = self._guess_confirmed(finding)
            if finding.code == "ML003" and finding.extra.get("function") and not finding.extra.get("in_file_calls"):
                if self.only_called_without_grad(finding.filename, finding.extra["function"]):
                    continue
            adjusted.append(finding)
        return adjusted
