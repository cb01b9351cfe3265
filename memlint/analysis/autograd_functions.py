"""Custom `torch.autograd.Function`s and the tensors their `forward` parks on `ctx`."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

import libcst as cst

from memlint.analysis.expressions import code, method_name, root_name

if TYPE_CHECKING:
    from memlint.analysis.context import FileContext

_NOT_TENSOR_ATTRIBUTES = {"shape", "dtype", "device", "requires_grad", "is_cuda", "ndim", "layout", "is_leaf"}
_NOT_TENSOR_METHODS = {
    "size", "dim", "numel", "item", "tolist", "stride", "is_contiguous", "data_ptr", "get_device",
    "element_size", "nelement", "is_floating_point", "storage_offset",
}
_NOT_TENSOR_TORCH = (
    "torch.is_grad_enabled", "torch.is_tensor", "torch.is_autocast_enabled", "torch.get_autocast_",
    "torch.finfo", "torch.iinfo", "torch.Size", "torch.device", "torch.dtype", "torch.numel",
    "torch.cuda.", "torch.distributed.get_", "torch.get_default_dtype",
)
_SCALAR_ANNOTATIONS = ("int", "float", "bool", "str", "tuple", "Tuple", "list", "List", "Sequence", "dict", "Dict")


@dataclass(frozen=True)
class CtxStore:
    function: cst.ClassDef  # the autograd.Function subclass
    assign: cst.Assign
    attributes: tuple[str, ...]  # `ctx.<attr>` names that receive tensors


class AutogradFunctions:
    def __init__(self, model: "FileContext") -> None:
        self.model = model

    def is_function_class(self, cls: cst.ClassDef) -> bool:
        for base in cls.bases:
            name = self.model.imports.resolve(base.value) or ""
            if name in ("torch.autograd.Function", "torch.autograd.function.Function") or (
                name.endswith(".autograd.Function")
            ):
                return True
        return False

    @cached_property
    def tensor_stores(self) -> list[CtxStore]:
        """Every `ctx.<attr> = <tensor or container of tensors>` in a Function.forward."""
        found = []
        for cls in self.model.tree.by_type.get(cst.ClassDef, ()):
            if not self.is_function_class(cls):
                continue
            for func in self.model.tree.descendants(cls.body, cst.FunctionDef):
                if func.name.value != "forward" or self.model.enclosing_class(func) is not cls:
                    continue
                params = [*func.params.posonly_params, *func.params.params]
                if not params:
                    continue
                ctx = params[0].name.value
                checker = _TensorEvidence(self.model, func, ctx)
                for assign in self.model.tree.descendants(func.body, cst.Assign):
                    attributes = [
                        t.attr.value
                        for target in assign.targets
                        for t, value in _pairs(target.target, assign.value)
                        if isinstance(t, cst.Attribute)
                        and isinstance(t.value, cst.Name)
                        and t.value.value == ctx
                        and checker.is_tensor(value)
                    ]
                    if attributes:
                        found.append(CtxStore(cls, assign, tuple(attributes)))
        return found


class _TensorEvidence:
    """Positive evidence that an expression in `forward` is a tensor."""

    def __init__(self, model: "FileContext", func: cst.FunctionDef, ctx: str) -> None:
        self.model = model
        self.func = func
        self.ctx = ctx
        self.params = {
            p.name.value: p for p in [*func.params.posonly_params, *func.params.params, *func.params.kwonly_params]
        }
        self._tensor_params = self._find_tensor_params()

    def _find_tensor_params(self) -> set[str]:
        tensors: set[str] = set()
        inputs = [name for name in self.params if name != self.ctx]
        if inputs:
            tensors.add(inputs[0])  # forward's first input is the tensor it transforms
        for name, param in self.params.items():
            if name == self.ctx:
                continue
            if param.annotation is not None:
                text = code(param.annotation.annotation)
                if "Tensor" in text:
                    tensors.add(name)
        tree = self.model.tree
        for call in tree.descendants(self.func.body, cst.Call):
            resolved = self.model.imports.resolve(call.func) or ""
            method = method_name(call)
            if method == "save_for_backward":
                tensors.update(a.value.value for a in call.args if isinstance(a.value, cst.Name))
            elif resolved.startswith("torch.") and not resolved.startswith(_NOT_TENSOR_TORCH) and call.args:
                first = call.args[0]  # the input tensor; later arguments are often dims and flags
                if first.keyword is None and isinstance(first.value, cst.Name):
                    tensors.add(first.value.value)
            if method and isinstance(call.func.value, cst.Name) and method not in _NOT_TENSOR_METHODS:
                if method not in ("append", "get", "items", "keys", "values", "format"):
                    tensors.add(call.func.value.value)
        for attr in tree.descendants(self.func.body, cst.Attribute):
            if attr.attr.value in ("shape", "T", "dtype", "device") and isinstance(attr.value, cst.Name):
                tensors.add(attr.value.value)
        # forward returns tensors: what it returns (or does arithmetic on to return) is one
        for ret in tree.descendants(self.func.body, cst.Return):
            if ret.value is not None:
                tensors.update(_returned_names(ret.value))
        for binop in tree.descendants(self.func.body, cst.BinaryOperation):
            if isinstance(binop.operator, cst.MatrixMultiply):
                for side in (binop.left, binop.right):
                    if isinstance(side, cst.Name):
                        tensors.add(side.value)
        for name in list(tensors):
            param = self.params.get(name)
            if param is not None and param.annotation is not None:
                text = code(param.annotation.annotation)
                if text.split("[")[0].split(".")[-1] in _SCALAR_ANNOTATIONS and "Tensor" not in text:
                    tensors.discard(name)
        tensors.discard(self.ctx)
        return tensors

    def is_tensor(self, expr: cst.BaseExpression, guard: frozenset = frozenset()) -> bool:
        if isinstance(expr, cst.Name):
            if expr.value in self._tensor_params:
                return True
            if expr.value in guard:
                return False
            bindings = self.model.bindings(self.func, expr.value)
            return any(
                b.value is not None and self.is_tensor(b.value, guard | {expr.value}) for b in bindings
            ) or (expr.value in self._tensor_params and not bindings)
        if isinstance(expr, cst.Attribute):
            if expr.attr.value in _NOT_TENSOR_ATTRIBUTES or root_name(expr) == self.ctx:
                return False
            return expr.attr.value in ("T", "data", "grad", "mT", "H") and self.is_tensor(expr.value, guard)
        if isinstance(expr, cst.Subscript):
            return self.is_tensor(expr.value, guard)
        if isinstance(expr, cst.Call):
            resolved = self.model.imports.resolve(expr.func) or ""
            if resolved.startswith("torch."):
                return not resolved.startswith(_NOT_TENSOR_TORCH)
            method = method_name(expr)
            if method and method not in _NOT_TENSOR_METHODS:
                return self.is_tensor(expr.func.value, guard)
            return False
        if isinstance(expr, cst.BinaryOperation):
            return self.is_tensor(expr.left, guard) or self.is_tensor(expr.right, guard)
        if isinstance(expr, cst.Comparison):  # `x > 0` on a tensor is a bool tensor
            return self.is_tensor(expr.left, guard) or any(self.is_tensor(c.comparator, guard) for c in expr.comparisons)
        if isinstance(expr, (cst.Tuple, cst.List)):
            return any(self.is_tensor(e.value, guard) for e in expr.elements)
        if isinstance(expr, cst.Dict):
            return any(isinstance(e, cst.DictElement) and self.is_tensor(e.value, guard) for e in expr.elements)
        if isinstance(expr, (cst.ListComp, cst.GeneratorExp)):
            return self.is_tensor(expr.elt, guard)
        return False


def _returned_names(expr: cst.BaseExpression) -> set[str]:
    """Names `forward` returns as they are: `y` in `return y` or `return y, None`."""
    if isinstance(expr, cst.Name):
        return {expr.value}
    if isinstance(expr, (cst.Tuple, cst.List)):
        return {n for e in expr.elements for n in _returned_names(e.value)}
    return set()


def _pairs(target: cst.BaseExpression, value: cst.BaseExpression) -> list[tuple[cst.BaseExpression, cst.BaseExpression]]:
    """`ctx.q, ctx.k = q, k` -> [(ctx.q, q), (ctx.k, k)]; otherwise [(target, value)]."""
    if (
        isinstance(target, (cst.Tuple, cst.List))
        and isinstance(value, (cst.Tuple, cst.List))
        and len(target.elements) == len(value.elements)
    ):
        return [(t.value, v.value) for t, v in zip(target.elements, value.elements)]
    return [(target, value)]
