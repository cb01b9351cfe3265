from __future__ import annotations

from functools import cached_property

import libcst as cst

from memlint.analysis.expressions import call_arg, callee_name, code, method_name
from memlint.models import Applicability, Severity
from memlint.rules.base import Rule

ALLOC_VARIABLES = {"PYTORCH_CUDA_ALLOC_CONF", "PYTORCH_ALLOC_CONF", "PYTORCH_NO_CUDA_MEMORY_CACHING"}
_SETTERS = {"os.environ.update", "os.environ.setdefault", "os.putenv", "os.environ.__setitem__"}
# Packages whose import imports torch (and so reads the allocator backend).
_TORCH_PACKAGES = {
    "torch", "torchvision", "torchaudio", "torchtext", "lightning", "pytorch_lightning", "lightning_fabric",
    "accelerate", "timm", "peft", "deepspeed", "torchtune", "torchmetrics",
}
# torch.cuda functions that do not initialise CUDA (or are the fix).
_NO_INIT = {
    "is_available", "device_count", "is_initialized", "manual_seed", "manual_seed_all", "get_arch_list",
    "_set_allocator_settings", "empty_cache", "memory_allocated", "memory_reserved", "max_memory_allocated",
    "max_memory_reserved", "memory_stats", "memory_summary", "ipc_collect",
}
_LAUNCHES = (
    "subprocess.", "os.system", "os.exec", "os.spawn", "os.posix_spawn", "multiprocessing.Process",
    "torch.multiprocessing.spawn", "torch.multiprocessing.start_processes", "torch.distributed.run",
    "torch.distributed.launcher",
)
_MAX_DEPTH = 2


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
        for target in node.targets:
            t = target.target
            if isinstance(t, cst.Subscript) and self._is_environ(t.value):
                key = _subscript_key(t)
                if key in ALLOC_VARIABLES:
                    self._check(node, key, node.value)
                    return

    def visit_Call(self, node: cst.Call) -> None:
        qualified = self.model.imports.resolve(node.func) or ""
        if qualified not in _SETTERS and not (
            method_name(node) in ("update", "setdefault", "__setitem__") and self._is_environ(node.func.value)
        ):
            return
        if qualified.endswith(".update") or method_name(node) == "update":
            for key, value in _update_items(node):
                if key in ALLOC_VARIABLES:
                    self._check(node, key, value)
                    return
            return
        key_arg, value_arg = call_arg(node, 0, "key"), call_arg(node, 1, "value")
        key = _string(key_arg.value) if key_arg else None
        if key in ALLOC_VARIABLES:
            self._check(node, key, value_arg.value if value_arg else None)

    # -- the check ---------------------------------------------------------------------
    def _check(self, setter: cst.CSTNode, key: str, value: cst.BaseExpression | None) -> None:
        if self._launches_after(setter):
            return  # set for a child process, which reads it at its own start
        used = self._cuda_before(setter, _MAX_DEPTH)
        if used is not None:
            row = self._row(used)
            message = (
                f"`{key}` is set after this code path has already used CUDA (`{_short(used)}`{row}): the allocator "
                "read its settings when CUDA was initialised, so this one is silently ignored (axolotl PR 2183: "
                "37 GB -> 27 GB reserved once it was set early)"
            )
            self.report(setter, message, self._hint(key))
            return
        if value is not None and _sets_backend(value) and key != "PYTORCH_NO_CUDA_MEMORY_CACHING":
            imported = self._torch_imported_before(setter)
            if imported is not None:
                message = (
                    f"`{key}` sets `backend:` after `{imported}` has run: the backend is chosen when torch is "
                    "imported, so the first CUDA use fails with 'Allocator backend parsed at runtime != allocator "
                    "backend parsed at load time' (pytorch issue 104801)"
                )
                self.report(setter, message, self._hint(key, backend=True))

    def _hint(self, key: str, backend: bool = False) -> str:
        first = self._first_torch_import()
        above = f"`{first[0]}` (line {first[1]})" if first else "`import torch`"
        where = (
            f"move it above {above}, on the first lines of the entry script "
            f"(`os.environ.setdefault(\"{key}\", ...)`), or set it in the environment that launches the script"
        )
        if backend or key == "PYTORCH_NO_CUDA_MEMORY_CACHING":
            return where
        return where + "; to change settings at run time call `torch.cuda.memory._set_allocator_settings(...)`"

    def _first_torch_import(self) -> tuple[str, int] | None:
        model = self.model
        found = []
        for node_type in (cst.Import, cst.ImportFrom):
            for stmt in model.tree.by_type.get(node_type, ()):
                root = _imported_root(stmt)
                if root in _TORCH_PACKAGES and model.scope_of(stmt) is model.module:
                    found.append(stmt)
        if not found:
            return None
        first = min(found, key=lambda n: model.tree.order[id(n)])
        row = self._row(first)
        return (f"import {_imported_root(first)}", int(row.split()[-1])) if row else None

    def _row(self, node: cst.CSTNode) -> str:
        from memlint.analysis.positions import positions  # noqa: PLC0415 - only when reporting

        try:
            return f", line {positions(self.model.module, [node], node)[node].start.line}"
        except Exception:  # noqa: BLE001 - the line is a courtesy
            return ""

    def _is_environ(self, expr: cst.BaseExpression) -> bool:
        return self.model.imports.resolve(expr) == "os.environ"

    # -- what ran before ---------------------------------------------------------------
    @cached_property
    def _cuda_uses(self) -> list[cst.CSTNode]:
        uses = []
        for call in self.model.tree.by_type.get(cst.Call, ()):
            if self._uses_cuda(call):
                uses.append(call)
        return uses

    def _uses_cuda(self, call: cst.Call) -> bool:
        method = method_name(call)
        if method == "cuda" and not (self.model.imports.resolve(call.func) or "").startswith("torch."):
            return True
        qualified = self.model.imports.resolve(call.func) or ""
        if qualified.startswith("torch.cuda.") and not qualified.startswith(("torch.cuda.amp.", "torch.cuda.memory._")):
            last = qualified.rsplit(".", 1)[-1]
            return last not in _NO_INIT and not last[:1].isupper()
        if qualified == "torch.device":
            return False
        if method == "to":
            arg = call_arg(call, 0, "device")
            if arg is not None and self._is_cuda_device(arg.value, call):
                return True
        device = call_arg(call, None, "device")
        return device is not None and self._is_cuda_device(device.value, call)

    def _is_cuda_device(self, expr: cst.BaseExpression, at: cst.CSTNode) -> bool:
        if _is_cuda_literal(expr):
            return True
        if isinstance(expr, cst.Call) and self.model.imports.resolve(expr.func) == "torch.device" and expr.args:
            return _is_cuda_literal(expr.args[0].value)
        if isinstance(expr, cst.Name):
            model = self.model
            scope = model.scope_of(at)
            bindings = model.bindings(scope, expr.value)
            if not bindings and expr.value not in model.params(scope):
                bindings = model.bindings(model.module, expr.value)
            for binding in bindings:
                value = binding.value
                if isinstance(value, cst.Call) and model.imports.resolve(value.func) == "torch.device" and value.args:
                    value = value.args[0].value
                if value is not None and _is_cuda_literal(value):
                    return True
        return False

    def _cuda_before(self, node: cst.CSTNode, depth: int) -> cst.CSTNode | None:
        """A CUDA use that runs before `node` on its path: earlier in its scope (not
        in the other branch of an `if`), in a function of this file called earlier,
        or before a call of the function that holds `node`."""
        model = self.model
        tree = model.tree
        scope = model.scope_of(node)
        position = tree.order[id(node)]
        for use in self._cuda_uses:
            if tree.order[id(use)] < position and model.scope_of(use) is scope and not self._exclusive(use, node):
                return use
        for call in tree.descendants(scope, cst.Call):
            if tree.order[id(call)] >= position:
                break
            if model.scope_of(call) is not scope or self._exclusive(call, node):
                continue
            for func in model.local_callees(call):
                if not tree.contains(func, node) and self._function_uses_cuda(func, depth):
                    return call
        if isinstance(scope, cst.FunctionDef) and depth > 0:
            for site in model.call_sites().get(scope, ()):
                found = self._cuda_before(site, depth - 1)
                if found is not None:
                    return found
        return None

    def _function_uses_cuda(self, func: cst.FunctionDef, depth: int) -> bool:
        tree = self.model.tree
        if any(tree.contains(func, use) for use in self._cuda_uses):
            return True
        if depth <= 0:
            return False
        return any(
            self._function_uses_cuda(callee, depth - 1)
            for call in tree.descendants(func, cst.Call)
            for callee in self.model.local_callees(call)
            if callee is not func
        )

    def _exclusive(self, a: cst.CSTNode, b: cst.CSTNode) -> bool:
        """Are `a` and `b` in different branches of one `if`?"""
        tree = self.model.tree
        child_of: dict[int, cst.CSTNode] = {}
        previous = a
        for anc in tree.ancestors(a):
            child_of[id(anc)] = previous
            previous = anc
        previous = b
        for anc in tree.ancestors(b):
            if id(anc) in child_of:
                if isinstance(anc, cst.If):
                    mine, theirs = previous, child_of[id(anc)]
                    return mine is not theirs and anc.test is not mine and anc.test is not theirs
                return False
            previous = anc
        return False

    def _torch_imported_before(self, node: cst.CSTNode) -> str | None:
        model = self.model
        tree = model.tree
        scope = model.scope_of(node)
        position = tree.order[id(node)]
        for node_type in (cst.Import, cst.ImportFrom):
            for stmt in tree.by_type.get(node_type, ()):
                root = _imported_root(stmt)
                if root not in _TORCH_PACKAGES:
                    continue
                where = model.scope_of(stmt)
                if where is model.module and (scope is not model.module or tree.order[id(stmt)] < position):
                    return f"import {root}"
                if where is scope and tree.order[id(stmt)] < position:
                    return f"import {root}"
        return None

    def _launches_after(self, node: cst.CSTNode) -> bool:
        model = self.model
        tree = model.tree
        scope = model.scope_of(node)
        position = tree.order[id(node)]
        for call in tree.descendants(scope, cst.Call):
            if tree.order[id(call)] <= position:
                continue
            qualified = model.imports.resolve(call.func) or callee_name(call) or ""
            if qualified.startswith(_LAUNCHES) or qualified.endswith(("Popen", ".spawn", "start_processes")):
                return True
        return False


def _string(expr: cst.BaseExpression | None) -> str | None:
    if isinstance(expr, cst.SimpleString):
        return expr.evaluated_value if isinstance(expr.evaluated_value, str) else None
    return None


def _subscript_key(target: cst.Subscript) -> str | None:
    if len(target.slice) != 1 or not isinstance(target.slice[0].slice, cst.Index):
        return None
    return _string(target.slice[0].slice.value)


def _update_items(call: cst.Call) -> list[tuple[str | None, cst.BaseExpression]]:
    items: list[tuple[str | None, cst.BaseExpression]] = []
    for arg in call.args:
        if arg.keyword is not None:
            items.append((arg.keyword.value, arg.value))
        elif isinstance(arg.value, cst.Dict):
            for element in arg.value.elements:
                if isinstance(element, cst.DictElement):
                    items.append((_string(element.key), element.value))
    return items


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


def _is_cuda_literal(expr: cst.BaseExpression) -> bool:
    if isinstance(expr, cst.SimpleString):
        value = expr.evaluated_value
        return isinstance(value, str) and value.startswith("cuda")
    if isinstance(expr, cst.FormattedString):
        first = expr.parts[0] if expr.parts else None
        return isinstance(first, cst.FormattedStringText) and first.value.startswith("cuda")
    if isinstance(expr, cst.IfExp):
        return _is_cuda_literal(expr.body) or _is_cuda_literal(expr.orelse)
    return False


def _imported_root(stmt: cst.Import | cst.ImportFrom) -> str | None:
    if isinstance(stmt, cst.ImportFrom):
        if stmt.relative or stmt.module is None:
            return None
        node: cst.BaseExpression = stmt.module
    else:
        node = stmt.names[0].name
    while isinstance(node, cst.Attribute):
        node = node.value
    return node.value if isinstance(node, cst.Name) else None


def _short(node: cst.CSTNode) -> str:
    text = " ".join(code(node).split())
    return text if len(text) <= 40 else text[:37] + "..."
