from __future__ import annotations

import libcst as cst

from memlint.analysis.facts.cuda_init import alloc_setting
from memlint.analysis.syntax.expressions import code
from memlint.models import Applicability, Severity
from memlint.rules.base import Rule



class AllocConfTooLate(Rule):
    code = "ML010"
    name = "alloc-conf-too-late"
    severity = Severity.WARNING
    summary = "`PYTORCH_CUDA_ALLOC_CONF` is set after CUDA (or torch) has read it"
    fix_applicability = Applicability.DISPLAY_ONLY
    needles = (("PYTORCH_CUDA_ALLOC_CONF", "PYTORCH_ALLOC_CONF", "PYTORCH_NO_CUDA_MEMORY_CACHING"),)
    what = """
Checks for `os.environ[...] = ...`, `os.environ.update(...)`,
`os.environ.setdefault(...)` and `os.putenv(...)` of `PYTORCH_CUDA_ALLOC_CONF`,
`PYTORCH_ALLOC_CONF` or `PYTORCH_NO_CUDA_MEMORY_CACHING` that run after this
code path has already used CUDA (`.cuda()`, `.to("cuda")`, `device="cuda"`, a
`torch.cuda.*` call other than `is_available()`/`device_count()`), or, for a
value that sets `backend:`, after `import torch`. Setting it before
`import torch`, in a launcher for a child process, or changing settings with
`torch.cuda.memory._set_allocator_settings(...)` is fine.

Severity: warning: the setting is lost (or, for `backend:`, the first CUDA
use fails), but nothing grows.
"""
    why = """
The CUDA caching allocator reads these variables once: the backend when torch
is imported, the other settings when CUDA is first initialised. Set later,
they are silently ignored, so `expandable_segments:True` or a
`max_split_size_mb` never takes effect: axolotl (PR 2183) saw 37 GB reserved
drop to 27 GB once the variable was set early enough. A `backend:` set after
`import torch` fails at the first CUDA use with "Allocator backend parsed at
runtime != allocator backend parsed at load time" (pytorch issue 104801).
"""
    example = """
import os
import torch

model = Net().cuda()
os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"
"""
    use_instead = """
import os
os.environ.setdefault("PYTORCH_CUDA_ALLOC_CONF", "expandable_segments:True")

import torch

model = Net().cuda()
"""

    def visit_Assign(self, node: cst.Assign) -> None:
        self._visit(node)

    def visit_Call(self, node: cst.Call) -> None:
        self._visit(node)

    def _visit(self, node: cst.CSTNode) -> None:
        setting = alloc_setting(self.model, node)
        if setting is not None:
            self._check(node, *setting)

    # -- the check ---------------------------------------------------------------------
    def _check(self, setter: cst.CSTNode, key: str, value: cst.BaseExpression | None) -> None:
        if self.model.cuda_init.launches_after(setter):
            return  # set for a child process, which reads it at its own start
        used = self.model.cuda_init.cuda_before(setter)
        if used is not None:
            row = self._row(used)
            message = f"`{key}` is set after this code path first used CUDA (`{_short(used)}`{row}), so the allocator ignores it"
            hint = self._hint(key) + "; axolotl PR 2183: 37 GB -> 27 GB reserved once it was set early"
            self.report(setter, message, hint)
            return
        if value is not None and _sets_backend(value) and key != "PYTORCH_NO_CUDA_MEMORY_CACHING":
            imported = self.model.cuda_init.torch_imported_before(setter)
            if imported is not None:
                message = f"`{key}` sets `backend:` after `{imported}` has run, so the first CUDA use fails"
                hint = self._hint(key, backend=True) + (
                    "; torch chose the backend on import and raises 'Allocator backend parsed at runtime != "
                    "allocator backend parsed at load time' (pytorch issue 104801)"
                )
                self.report(setter, message, hint)

    def _hint(self, key: str, backend: bool = False) -> str:
        first = self.model.cuda_init.first_torch_import()
        row = self._row(first[1]) if first else ""
        above = f"`{first[0]}` (line {row.split()[-1]})" if first and row else "`import torch`"
        where = (
            f"move it above {above}, on the first lines of the entry script "
            f"(`os.environ.setdefault(\"{key}\", ...)`), or set it in the environment that launches the script"
        )
        if backend or key == "PYTORCH_NO_CUDA_MEMORY_CACHING":
            return where
        return where + "; to change settings at run time call `torch.cuda.memory._set_allocator_settings(...)`"

    def _row(self, node: cst.CSTNode) -> str:
        try:
            return f", line {self.model.range_of(node).start.line}"
        except Exception:  # noqa: BLE001 - the line is a courtesy
            return ""


def _strings_in(expr: cst.BaseExpression) -> list[str]:
    out = []
    stack: list[cst.CSTNode] = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.SimpleString):
            value = node.evaluated_value
            out.append(value if isinstance(value, str) else "")
        elif isinstance(node, cst.FormattedStringText):
            out.append(node.value)
        else:
            stack.extend(node.children)
    return out


def _sets_backend(value: cst.BaseExpression) -> bool:
    return any("backend" in s for s in _strings_in(value))


def _short(node: cst.CSTNode) -> str:
    text = " ".join(code(node).split())
    return text if len(text) <= 40 else text[:37] + "..."
