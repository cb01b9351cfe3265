"""Where CUDA is initialised, and what ran before a given point of a file.

The CUDA caching allocator reads `PYTORCH_CUDA_ALLOC_CONF` once: its backend
when torch is imported, its other settings when CUDA is first initialised.
Whether a setting comes too late depends on what ran before it: a CUDA use
earlier on the same path (in the scope, in a function of the file called
earlier, before a call of the function that holds it), an `import torch`, or,
across files, a call made after the caller used CUDA (`summary` feeds the
project index).
"""

from __future__ import annotations

from bisect import bisect_left
from functools import cached_property
from typing import TYPE_CHECKING

import libcst as cst

from memlint.analysis.syntax.expressions import call_arg, callee_name, method_name

if TYPE_CHECKING:
    from memlint.analysis.context import FileContext

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
MAX_DEPTH = 2  # calls followed from a setter to a CUDA use before it



class CudaInit:
    def __init__(self, model: "FileContext") -> None:
        self.model = model
        # Answers kept per node, scope and function: a file asks about each of its calls.
        self._before_memo: dict[tuple[int, int], cst.CSTNode | None] = {}
        self._cuda_calls_memo: dict[tuple[int, int], list[tuple[cst.Call, list[cst.FunctionDef]]]] = {}
        self._function_memo: dict[tuple[int, int], bool] = {}
        self._last_launch: dict[int, int] = {}

    def first_torch_import(self) -> tuple[str, cst.CSTNode] | None:
        """The first module-level import of torch (or a package that imports it), and its node."""
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
        return f"import {_imported_root(first)}", first


    @cached_property
    def cuda_uses(self) -> list[cst.CSTNode]:
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

    @cached_property
    def _use_orders(self) -> list[int]:
        """The source positions of the CUDA uses, ascending (pre-order is source order)."""
        order = self.model.tree.order
        return [order[id(use)] for use in self.cuda_uses]

    @cached_property
    def _uses_by_scope(self) -> dict[int, list[cst.CSTNode]]:
        """Scope id -> its CUDA uses in source order: each use placed once, so that a
        question about one node never walks the uses of other scopes."""
        table: dict[int, list[cst.CSTNode]] = {}
        for use in self.cuda_uses:
            table.setdefault(id(self.model.scope_of(use)), []).append(use)
        return table

    @cached_property
    def _calls_by_scope(self) -> dict[int, list[cst.Call]]:
        """Scope id -> the calls made directly in it (not in nested functions), in source order."""
        table: dict[int, list[cst.Call]] = {}
        for call in self.model.tree.by_type.get(cst.Call, ()):
            table.setdefault(id(self.model.scope_of(call)), []).append(call)
        return table

    def _cuda_calls(self, scope: cst.CSTNode, depth: int) -> list[tuple[cst.Call, list[cst.FunctionDef]]]:
        """The calls of `scope` that reach a function of this file using CUDA (within `depth`
        calls), with those functions; computed once per scope and depth."""
        key = (id(scope), depth)
        found = self._cuda_calls_memo.get(key)
        if found is None:
            found = []
            for call in self._calls_by_scope.get(id(scope), ()):
                funcs = [f for f in self.model.local_callees(call) if self._function_uses_cuda(f, depth)]
                if funcs:
                    found.append((call, funcs))
            self._cuda_calls_memo[key] = found
        return found

    def cuda_before(self, node: cst.CSTNode, depth: int = MAX_DEPTH) -> cst.CSTNode | None:
        """A CUDA use that runs before `node` on its path: earlier in its scope (not
        in the other branch of an `if`), in a function of this file called earlier,
        or before a call of the function that holds `node`."""
        key = (id(node), depth)
        if key not in self._before_memo:
            self._before_memo[key] = self._cuda_before(node, depth)
        return self._before_memo[key]

    def _cuda_before(self, node: cst.CSTNode, depth: int) -> cst.CSTNode | None:
        model = self.model
        tree = model.tree
        scope = model.scope_of(node)
        position = tree.order[id(node)]
        # The earliest use that is not in the other branch of an `if`: almost always the first one.
        for use in self._uses_by_scope.get(id(scope), ()):
            if tree.order[id(use)] >= position:
                break
            if not self._exclusive(use, node):
                return use
        for call, funcs in self._cuda_calls(scope, depth):
            if tree.order[id(call)] >= position:
                break
            if not self._exclusive(call, node) and any(not tree.contains(func, node) for func in funcs):
                return call
        if isinstance(scope, cst.FunctionDef) and depth > 0:
            for site in model.call_sites().get(scope, ()):
                found = self.cuda_before(site, depth - 1)
                if found is not None:
                    return found
        return None

    def _function_uses_cuda(self, func: cst.FunctionDef, depth: int) -> bool:
        key = (id(func), depth)
        memo = self._function_memo
        if key not in memo:
            memo[key] = self._decide_function_uses_cuda(func, depth)
        return memo[key]

    def _decide_function_uses_cuda(self, func: cst.FunctionDef, depth: int) -> bool:
        tree = self.model.tree
        orders = self._use_orders
        first = bisect_left(orders, tree.order[id(func)])
        if first < len(orders) and orders[first] <= tree.end[id(func)]:
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

    def torch_imported_before(self, node: cst.CSTNode) -> str | None:
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

    def launches_after(self, node: cst.CSTNode) -> bool:
        """Does the scope of `node` start a process (which reads the environment) after it?"""
        model = self.model
        tree = model.tree
        scope = model.scope_of(node)
        last = self._last_launch.get(id(scope))
        if last is None:
            last = -1
            for call in tree.descendants(scope, cst.Call):
                qualified = model.imports.resolve(call.func) or callee_name(call) or ""
                if qualified.startswith(_LAUNCHES) or qualified.endswith(("Popen", ".spawn", "start_processes")):
                    last = tree.order[id(call)]
            self._last_launch[id(scope)] = last
        return last > tree.order[id(node)]


def _is_cuda_literal(expr: cst.BaseExpression) -> bool:
    if type(expr) is cst.SimpleString:
        value = expr.evaluated_value
        return isinstance(value, str) and value.startswith("cuda")
    if type(expr) is cst.FormattedString:
        first = expr.parts[0] if expr.parts else None
        return type(first) is cst.FormattedStringText and first.value.startswith("cuda")
    if type(expr) is cst.IfExp:
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


def alloc_setting(model: "FileContext", node: cst.CSTNode) -> tuple[str, cst.BaseExpression | None] | None:
    """`(variable, value)` when `node` sets an allocator variable: `os.environ[k] = v`,
    `os.environ.update(...)`, `os.environ.setdefault(k, v)`, `os.putenv(k, v)`."""
    is_environ = lambda expr: model.imports.resolve(expr) == "os.environ"  # noqa: E731
    if isinstance(node, cst.Assign):
        for target in node.targets:
            t = target.target
            if isinstance(t, cst.Subscript) and is_environ(t.value):
                key = _subscript_key(t)
                if key in ALLOC_VARIABLES:
                    return key, node.value
        return None
    if not isinstance(node, cst.Call):
        return None
    qualified = model.imports.resolve(node.func) or ""
    if qualified not in _SETTERS and not (
        method_name(node) in ("update", "setdefault", "__setitem__") and is_environ(node.func.value)
    ):
        return None
    if qualified.endswith(".update") or method_name(node) == "update":
        return next(((k, v) for k, v in _update_items(node) if k in ALLOC_VARIABLES), None)
    key_arg, value_arg = call_arg(node, 0, "key"), call_arg(node, 1, "value")
    key = _string(key_arg.value) if key_arg else None
    return (key, value_arg.value if value_arg else None) if key in ALLOC_VARIABLES else None


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
