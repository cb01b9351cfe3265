"""`ProjectIndex`: the summaries of a project's files joined, and the findings adjusted by them.

The summaries are written by memlint/analysis/project.py, one per file, in the
worker that parsed it; joining them needs no parse, so this module imports no
LibCST (a run whose files all hit the cache imports neither).
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Any

from memlint.models import Finding, Position, Severity


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
                    f"after its first CUDA use (`{use}`, line {row}), so the allocator ignores it",
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
        from memlint.analysis import lightning_precision as lightning  # LibCST: only for such a finding

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
                        f"autograd graph, whose Function `{origin.rsplit('.', 1)[1]}` ({where}) keeps tensors on "
                        "`ctx` on the device",
                    )
            if finding.code == "ML002" and finding.extra.get("lightning"):
                finding = self._lightning_cast_cache(finding)
                if finding is None:
                    continue
            if finding.code == "ML003" and finding.extra.get("function") and not finding.extra.get("in_file_calls"):
                if self.only_called_without_grad(finding.filename, finding.extra["function"]):
                    continue
            adjusted.append(finding)
        return adjusted
